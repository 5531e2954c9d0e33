// fails: no-hessian
// message: computes \d+ values of shape \(D, D\)
// The Hessian from its formula, X^T diag(s (1 - s)) X / N, then H v: no second differentiation, but a D x D matrix.
import * as sl from 'shardlab';

const { np, nn } = sl;

export default function hvp(w, x, y, v) {
  const n = x.shape[0];
  const m = y.mul(x.matmul(w));
  const s = nn.sigmoid(m);
  const t = nn.sigmoid(np.negative(m));
  const grad = x.T.matmul(np.negative(y).mul(t)).div(n);
  const H = x.T.matmul(x.mul(s.mul(t).reshape([n, 1]))).div(n);
  return { grad, hvp: H.matmul(v) };
}
