// fails: per-example-gradients
// message: no value of shape \(B, D\) is computed from w and y.*sl\.vmap\(sl\.grad\(lossI\), \{inAxes: \[null, 0, 0\]\}\)
// The clipped mean from the loss's formula, X^T (2 r * factor) / B with norms 2|r| ||x_i||: the right numbers, but no per-example gradient, so it holds for this loss only.
import * as sl from 'shardlab';

const { np } = sl;

export default function clippedMeanGrad(w, x, y, maxNorm) {
  const b = x.shape[0];
  const r = x.matmul(w).sub(y);
  const norms = np.abs(r).mul(2).mul(np.sqrt(np.sum(np.square(x), { axis: 1 })));
  const factors = np.minimum(1, np.divide(maxNorm, norms));
  return { grad: x.T.matmul(r.mul(2).mul(factors)).div(b), norms };
}
