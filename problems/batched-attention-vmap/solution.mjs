// Reference solution: attention for one example, mapped over the batch with sl.vmap.
import * as sl from 'shardlab';

export default function attention(q, k, v) {
  const attend = (q, k, v) => {
    const logits = q.matmul(k.T).div(Math.sqrt(q.shape[1]));
    return sl.nn.softmax(logits, { axis: -1 }).matmul(v);
  };
  return { out: sl.vmap(attend)(q, k, v) };
}
