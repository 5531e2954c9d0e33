// fails: per-example-gradients, does-not-grow-with-B, max-norm-traced, cases
// message: turns a traced value into a number \(Number\(maxNorm\), Math\.min or a comparison\).*np\.minimum\(1, np\.divide\(maxNorm, norm\)\) \(ConcretizationError\)
// Math.min on the factor: JavaScript converts the traced max_norm / norm to a number, which a traced value cannot be.
import * as sl from 'shardlab';

const { np } = sl;

export default function clippedMeanGrad(w, x, y, maxNorm) {
  const clipped = (w, xi, yi) => {
    const g = sl.grad((w) => np.square(xi.matmul(w).sub(yi)))(w);
    const norm = np.linalg.norm(g);
    return [g.mul(Math.min(1, np.divide(maxNorm, norm))), norm];
  };
  const [grads, norms] = sl.vmap(clipped, { inAxes: [null, 0, 0] })(w, x, y);
  return { grad: np.mean(grads, { axis: 0 }), norms };
}
