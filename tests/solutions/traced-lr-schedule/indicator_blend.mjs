// A correct schedule without select or cond: the two phases blended by an
// indicator of the warmup, computed in the program from the traced step.
// passes
import * as sl from 'shardlab';

const { np } = sl;

export default function schedule_step(w, g, step, base_lr, warmup, total) {
  const warm = np.less(step, warmup).astype('float32');
  const cosine = np.cos(step.sub(warmup).div(total.sub(warmup)).mul(Math.PI)).add(1).mul(0.5);
  const lr = np.multiply(base_lr, warm.mul(step.div(warmup)).add(np.subtract(1, warm).mul(cosine)));
  return { w: w.sub(lr.mul(g)), lr };
}
