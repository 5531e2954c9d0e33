// fails: does-not-grow-with-N-or-M
// message: grows with M \(\d+ equations at N=\d+, M=\d+ but \d+ at N=\d+, M=\d+\): a loop over the rows of y
// vmap over x's rows, but a JavaScript loop over y's rows: the program grows with M (and only with M).
import * as sl from 'shardlab';

const { np } = sl;

export default function pairwise(x, y) {
  const dist = (a, b) => a.sub(b).square().sum().sqrt();
  const fromEveryX = sl.vmap(dist, { inAxes: [0, null] });
  const columns = [];
  for (let j = 0; j < y.shape[0]; j++) columns.push(fromEveryX(x, y.at(j).get()));
  return { dist: np.stack(columns, 1) };
}
