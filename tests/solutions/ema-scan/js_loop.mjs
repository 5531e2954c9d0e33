// fails: uses-scan, does-not-grow-with-T
// message: grows with the number of steps \(\d+ equations at T=\d+ but \d+ at T=\d+\)
// A JavaScript loop over the rows: the right numbers, but the program unrolls one step per row.
import * as sl from 'shardlab';

const { np } = sl;

export default function ema(xs, decay) {
  const row = (t) => xs.at(t).get();
  let m = row(0);
  const rows = [m];
  for (let t = 1; t < xs.shape[0]; t++) {
    m = m.mul(decay).add(row(t).mul(np.subtract(1, decay)));
    rows.push(m);
  }
  return { all: np.stack(rows), last: m };
}
