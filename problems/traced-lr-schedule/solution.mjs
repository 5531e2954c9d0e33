// Reference solution: both phases computed from the traced step, the rate
// chosen between them with np.where.
import * as sl from 'shardlab';

const { np } = sl;

export default function schedule_step(w, g, step, base_lr, warmup, total) {
  const warm = np.multiply(base_lr, step.div(warmup));
  const progress = step.sub(warmup).div(total.sub(warmup));
  const cosine = np.multiply(base_lr, np.cos(progress.mul(Math.PI)).add(1)).mul(0.5);
  const lr = np.where(step.lt(warmup), warm, cosine);
  return { w: w.sub(lr.mul(g)), lr };
}
