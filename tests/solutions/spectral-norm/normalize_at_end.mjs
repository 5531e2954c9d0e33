// fails: cases
// message: output 'sigma' differs
// Normalizes only after the loop: the same directions in exact arithmetic, but (W W^T)^k u0 overflows float32.
import * as sl from 'shardlab';

const { lax, np } = sl;

export default function spectral_norm(w, u0, iters) {
  const step = (_, [u]) => {
    const v = w.T.matmul(u);
    return [w.matmul(v), v];
  };
  let [u, v] = lax.foriLoop(0, iters, step, [u0, np.zeros([w.shape[1]])]);
  u = u.div(np.linalg.norm(u));
  v = v.div(np.linalg.norm(v));
  return { sigma: u.dot(w.matmul(v)), u };
}
