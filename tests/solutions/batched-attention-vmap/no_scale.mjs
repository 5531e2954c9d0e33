// fails: cases
// message: output 'out' differs
// The logits without the 1/sqrt(d) scale: a stable, batched softmax, but too sharp.
import * as sl from 'shardlab';

export default function attention(q, k, v) {
  const attend = (q, k, v) => sl.nn.softmax(q.matmul(k.T), { axis: -1 }).matmul(v);
  return { out: sl.vmap(attend)(q, k, v) };
}
