// Reference solution: the distance between two points, mapped over y's rows and then over x's rows.
import * as sl from 'shardlab';

export default function pairwise(x, y) {
  const dist = (a, b) => a.sub(b).square().sum().sqrt();
  const toEveryY = sl.vmap(dist, { inAxes: [null, 0] });
  return { dist: sl.vmap(toEveryY, { inAxes: [0, null] })(x, y) };
}
