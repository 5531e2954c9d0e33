// fails: accurate-for-close-points, cases
// message: cancellation of \|a\|\^2 \+ \|b\|\^2 - 2 a·b
// |a - b|^2 expanded as |a|^2 + |b|^2 - 2 a.b: no loop, but float32 cancellation spoils the distances of close points.
import * as sl from 'shardlab';

const { np } = sl;

export default function pairwise(x, y) {
  const xx = x.square().sum({ axis: 1, keepdims: true });
  const yy = y.square().sum({ axis: 1 }).reshape([1, y.shape[0]]);
  return { dist: np.sqrt(xx.add(yy).sub(x.matmul(y.T).mul(2))) };
}
