// fails: no-hessian
// message: computes \d+ values of shape \(D, D\) \(f32\[\d+,\d+\]\).*sl\.jvp\(sl\.grad\(loss\), \[w\], \[v\]\)
// The whole Hessian with sl.hessian, then H v: the right numbers, but D x D values and D passes.
import * as sl from 'shardlab';

const { np, nn } = sl;

export default function hvp(w, x, y, v) {
  const loss = (w) => np.mean(nn.softplus(np.negative(y).mul(x.matmul(w))));
  const H = sl.hessian(loss)(w);
  return { grad: sl.grad(loss)(w), hvp: H.matmul(v) };
}
