// fails: cases
// message: output 'grad' differs
// The margin's sign dropped (log(1 + exp(+y x.w))): forward-over-reverse, but the loss of the opposite labels.
import * as sl from 'shardlab';

const { np, nn } = sl;

export default function hvp(w, x, y, v) {
  const loss = (w) => np.mean(nn.softplus(y.mul(x.matmul(w))));
  const [grad, hv] = sl.jvp(sl.grad(loss), [w], [v]);
  return { grad, hvp: hv };
}
