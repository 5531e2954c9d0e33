// fails: cases
// message: output 'dist' differs
// Squared distances: the square root is missing.
import * as sl from 'shardlab';

export default function pairwise(x, y) {
  const dist = (a, b) => a.sub(b).square().sum();
  return { dist: sl.vmap(sl.vmap(dist, { inAxes: [null, 0] }), { inAxes: [0, null] })(x, y) };
}
