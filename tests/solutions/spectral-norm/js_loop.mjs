// fails: uses-while-loop, trip-count-is-iters, cases
// message: the loop count is read as a number \(i < iters in a for loop, or Number\(iters\)\)
// A JavaScript for loop up to iters: i < iters converts the traced count to a number, which throws under jit.
import * as sl from 'shardlab';

const { np } = sl;

export default function spectral_norm(w, u0, iters) {
  let u = u0;
  let v;
  for (let i = 0; i < iters; i++) {
    const wtu = w.T.matmul(u);
    v = wtu.div(np.linalg.norm(wtu));
    const wv = w.matmul(v);
    u = wv.div(np.linalg.norm(wv));
  }
  return { sigma: u.dot(w.matmul(v)), u };
}
