// Reference solution: forward-over-reverse, the jvp of the gradient in the direction v.
import * as sl from 'shardlab';

const { np, nn } = sl;

export default function hvp(w, x, y, v) {
  const loss = (w) => np.mean(nn.softplus(np.negative(y).mul(x.matmul(w))));
  const [grad, hv] = sl.jvp(sl.grad(loss), [w], [v]);
  return { grad, hvp: hv };
}
