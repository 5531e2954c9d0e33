// fails: does-not-grow-with-N-or-M
// message: grows with N \(.*\) and with M
// Two JavaScript loops over the points: the right numbers, but one copy of the distance per pair.
import * as sl from 'shardlab';

const { np } = sl;

export default function pairwise(x, y) {
  const rows = [];
  for (let i = 0; i < x.shape[0]; i++) {
    const row = [];
    for (let j = 0; j < y.shape[0]; j++) row.push(x.at(i).get().sub(y.at(j).get()).square().sum().sqrt());
    rows.push(np.stack(row));
  }
  return { dist: np.stack(rows) };
}
