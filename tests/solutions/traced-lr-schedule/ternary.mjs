// fails: schedule-traced, phase-chosen-in-program, cases
// message: a comparison of step is computed but nothing uses it
// A JS ?: on a traced comparison: the array object is truthy, so every step takes the warmup branch.
import * as sl from 'shardlab';

const { np } = sl;

export default function schedule_step(w, g, step, base_lr, warmup, total) {
  const lr = step.lt(warmup)
    ? np.multiply(base_lr, step.div(warmup))
    : np.multiply(base_lr, np.cos(step.sub(warmup).div(total.sub(warmup)).mul(Math.PI)).add(1)).mul(0.5);
  return { w: w.sub(lr.mul(g)), lr };
}
