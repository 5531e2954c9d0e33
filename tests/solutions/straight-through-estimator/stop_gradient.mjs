// fails: custom-derivative-rule
// message: has a stop_gradient but no custom_vjp or custom_jvp call on w.*sl\.customVjp
// The stop_gradient trick, w + stopGradient(q(w) - w): the same numbers, but not the derivative rule the problem asks for.
import * as sl from 'shardlab';

const { lax, np } = sl;

export default function steStep(w, x, y, lr) {
  const loss = (w) => {
    const q = w.add(lax.stopGradient(np.round(w.mul(4)).div(4).sub(w)));
    return np.mean(np.square(x.matmul(q).sub(y)));
  };
  const [value, grad] = sl.valueAndGrad(loss)(w);
  return { w: w.sub(grad.mul(lr)), loss: value };
}
