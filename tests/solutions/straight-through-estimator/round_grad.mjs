// fails: custom-derivative-rule, cases
// message: has no custom_vjp or custom_jvp call\): round is flat almost everywhere.*sl\.customVjp
// Plain rounding with no estimator: the forward pass is right, but round's derivative is zero, so w never moves.
import * as sl from 'shardlab';

const { np } = sl;

export default function steStep(w, x, y, lr) {
  const loss = (w) => np.mean(np.square(x.matmul(np.round(w.mul(4)).div(4)).sub(y)));
  const [value, grad] = sl.valueAndGrad(loss)(w);
  return { w: w.sub(grad.mul(lr)), loss: value };
}
