// A decoy: a JavaScript loop unrolled over the rows, padded to a constant
// number of equations inside a whileLoop that never runs, beside a scan
// whose result nothing uses.
// fails: uses-scan, does-not-grow-with-T
// message: arranged differently
import * as sl from 'shardlab';

const { lax, np } = sl;

export default function ema(xs, decay) {
  const steps = xs.shape[0];
  const row = (t) => xs.at(t).get();
  let m = row(0);
  const rows = [m];
  for (let t = 1; t < steps; t++) {
    m = m.mul(decay).add(row(t).mul(np.subtract(1, decay)));
    rows.push(m);
  }
  const padding = (c) => {
    for (let i = 0; i < 1000 - 7 * steps; i++) c = c.add(0);
    return c;
  };
  const every = lax.whileLoop((c) => np.notEqual(np.sum(c), np.sum(c)), padding, np.stack(rows));
  lax.scan((c, x) => [c.mul(decay).add(x.mul(np.subtract(1, decay))), c], row(0), xs.at(sl.slice(1, null)).get());
  return { all: every, last: every.at(-1).get() };
}
