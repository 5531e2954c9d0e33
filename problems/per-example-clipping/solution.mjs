// Reference solution: per-example gradients with vmap(grad), each scaled to at most maxNorm, then averaged.
import * as sl from 'shardlab';

const { np } = sl;

export default function clippedMeanGrad(w, x, y, maxNorm) {
  const lossI = (w, xi, yi) => np.square(xi.matmul(w).sub(yi));
  const grads = sl.vmap(sl.grad(lossI), { inAxes: [null, 0, 0] })(w, x, y);
  const norms = np.linalg.norm(grads, { axis: 1 });
  const factors = np.minimum(1, np.divide(maxNorm, norms));
  return { grad: np.mean(grads.mul(factors.reshape([x.shape[0], 1])), { axis: 0 }), norms };
}
