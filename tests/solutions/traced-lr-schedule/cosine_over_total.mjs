// fails: cases
// message: output 'w' differs
// The cosine phase measured from step 0 over total instead of from the end of the warmup over total - warmup.
import * as sl from 'shardlab';

const { np } = sl;

export default function schedule_step(w, g, step, base_lr, warmup, total) {
  const warm = np.multiply(base_lr, step.div(warmup));
  const cosine = np.multiply(base_lr, np.cos(step.div(total).mul(Math.PI)).add(1)).mul(0.5);
  const lr = np.where(step.lt(warmup), warm, cosine);
  return { w: w.sub(lr.mul(g)), lr };
}
