// fails: cases
// message: output 'norms' differs
// The norms reported after clipping (each at most max_norm) instead of before: the gradient is right, the norms are not.
import * as sl from 'shardlab';

const { np } = sl;

export default function clippedMeanGrad(w, x, y, maxNorm) {
  const lossI = (w, xi, yi) => np.square(xi.matmul(w).sub(yi));
  const grads = sl.vmap(sl.grad(lossI), { inAxes: [null, 0, 0] })(w, x, y);
  const factors = np.minimum(1, np.divide(maxNorm, np.linalg.norm(grads, { axis: 1 })));
  const clipped = grads.mul(factors.reshape([x.shape[0], 1]));
  return { grad: np.mean(clipped, { axis: 0 }), norms: np.linalg.norm(clipped, { axis: 1 }) };
}
