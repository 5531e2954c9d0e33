// Reference solution: column blocks of w1 and b1, row blocks of w2, one psum.
import * as sl from 'shardlab';

const { P, lax, nn } = sl;

export default function mlp(x, w1, b1, w2, b2) {
  const mesh = sl.makeMesh([sl.deviceCount()], ['model']); // every device: 8 in the checker
  const local = (x, w1, b1, w2) => {
    const h = nn.relu(x.matmul(w1).add(b1));
    return [lax.psum(h.matmul(w2), 'model'), h];
  };
  const [partial, hidden] = sl.shardMap(local, {
    mesh,
    inSpecs: [P(), P(null, 'model'), P('model'), P('model', null)],
    outSpecs: [P(), P(null, 'model')],
  })(x, w1, b1, w2);
  return { out: partial.add(b2), hidden };
}
