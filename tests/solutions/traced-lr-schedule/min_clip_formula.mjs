// A correct schedule as one branch-free formula: the warmup ramp capped at 1
// times the cosine of the clipped progress through the cosine phase.
// passes
import * as sl from 'shardlab';

const { np } = sl;

export default function schedule_step(w, g, step, base_lr, warmup, total) {
  const ramp = np.minimum(step.div(warmup), 1);
  const progress = np.clip(step.sub(warmup).div(total.sub(warmup)), 0, 1);
  const lr = np.multiply(base_lr, ramp).mul(np.cos(progress.mul(Math.PI)).add(1)).mul(0.5);
  return { w: w.sub(lr.mul(g)), lr };
}
