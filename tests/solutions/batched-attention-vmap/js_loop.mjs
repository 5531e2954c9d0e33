// fails: does-not-grow-with-B
// message: grows with the batch size \(\d+ equations at B=\d+ but \d+ at B=\d+\)
// A JavaScript loop over the examples: the right numbers, but one copy of attention per example.
import * as sl from 'shardlab';

const { np } = sl;

export default function attention(q, k, v) {
  const outs = [];
  for (let b = 0; b < q.shape[0]; b++) {
    const [qb, kb, vb] = [q, k, v].map((x) => x.at(b).get());
    const logits = qb.matmul(kb.T).div(Math.sqrt(q.shape[2]));
    outs.push(sl.nn.softmax(logits, { axis: -1 }).matmul(vb));
  }
  return { out: np.stack(outs) };
}
