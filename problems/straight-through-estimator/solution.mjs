// Reference solution: the quantizer as a customVjp whose backward pass lets the cotangent straight through.
import * as sl from 'shardlab';

const { np } = sl;

const round4 = (w) => np.round(w.mul(4)).div(4);
const quantize = sl.customVjp(round4, { name: 'quantize' });
// Straight through: the derivative of the rounding taken as 1.
quantize.defvjp((w) => [round4(w), null], (_, g) => [g]);

export default function steStep(w, x, y, lr) {
  const loss = (w) => np.mean(np.square(x.matmul(quantize(w)).sub(y)));
  const [value, grad] = sl.valueAndGrad(loss)(w);
  return { w: w.sub(grad.mul(lr)), loss: value };
}
