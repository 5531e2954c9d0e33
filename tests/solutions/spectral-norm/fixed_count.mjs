// fails: uses-while-loop, trip-count-is-iters, cases
// message: the iteration is a scan of fixed length 50
// Always 50 steps ("enough to converge"): a static bound makes a scan, and few-step cases get the converged vector.
import * as sl from 'shardlab';

const { lax, np } = sl;

export default function spectral_norm(w, u0, iters) {
  const step = (_, [u]) => {
    const wtu = w.T.matmul(u);
    const v = wtu.div(np.linalg.norm(wtu));
    const wv = w.matmul(v);
    return [wv.div(np.linalg.norm(wv)), v];
  };
  const [u, v] = lax.foriLoop(0, 50, step, [u0, np.zeros([w.shape[1]])]);
  return { sigma: u.dot(w.matmul(v)), u };
}
