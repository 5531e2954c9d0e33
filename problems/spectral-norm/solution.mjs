// Reference solution: one step of the power iteration as the body of
// foriLoop, whose traced upper bound makes it a while loop.
import * as sl from 'shardlab';

const { lax, np } = sl;

export default function spectral_norm(w, u0, iters) {
  const step = (_, [u]) => {
    const wtu = w.T.matmul(u);
    const v = wtu.div(np.linalg.norm(wtu));
    const wv = w.matmul(v);
    return [wv.div(np.linalg.norm(wv)), v];
  };
  const v0 = np.zeros([w.shape[1]]); // replaced by the first step (iters >= 1)
  const [u, v] = lax.foriLoop(0, iters, step, [u0, v0]);
  return { sigma: u.dot(w.matmul(v)), u };
}
