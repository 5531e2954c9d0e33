// fails: cases
// message: output 'w' differs
// A customVjp whose forward pass forgets to quantize: the rule is there, but the loss is taken at w itself.
import * as sl from 'shardlab';

const { np } = sl;

const quantize = sl.customVjp((w) => w.mul(1), { name: 'quantize' });
quantize.defvjp((w) => [w.mul(1), null], (_, g) => [g]);

export default function steStep(w, x, y, lr) {
  const loss = (w) => np.mean(np.square(x.matmul(quantize(w)).sub(y)));
  const [value, grad] = sl.valueAndGrad(loss)(w);
  return { w: w.sub(grad.mul(lr)), loss: value };
}
