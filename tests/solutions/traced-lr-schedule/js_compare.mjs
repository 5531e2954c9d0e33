// fails: schedule-traced, phase-chosen-in-program, cases
// message: turns a traced argument into a number \(Number\(step\), \+step, or a JS comparison such as step < warmup\)
// A JS if on step < warmup: the < operator converts the traced arrays to numbers, which throws under jit.
import * as sl from 'shardlab';

const { np } = sl;

export default function schedule_step(w, g, step, base_lr, warmup, total) {
  let lr;
  if (step < warmup) lr = np.multiply(base_lr, step.div(warmup));
  else lr = np.multiply(base_lr, np.cos(step.sub(warmup).div(total.sub(warmup)).mul(Math.PI)).add(1)).mul(0.5);
  return { w: w.sub(lr.mul(g)), lr };
}
