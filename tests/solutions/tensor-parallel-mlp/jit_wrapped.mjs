// A correct solution the checker once rejected: the reference inside the
// learner's own sl.jit (the judge looks through it).
// passes
import * as sl from 'shardlab';

const { P, lax, nn } = sl;

const mlp = sl.jit((x, w1, b1, w2, b2) => {
  const mesh = sl.makeMesh([8], ['model']);
  const local = (x, w1, b1, w2) => {
    const h = nn.relu(x.matmul(w1).add(b1));
    return [lax.psum(h.matmul(w2), 'model'), h];
  };
  const [partial, hidden] = sl.shardMap(local, { mesh, inSpecs: [P(), P(null, 'model'), P('model'), P('model', null)], outSpecs: [P(), P(null, 'model')] })(x, w1, b1, w2);
  return { out: partial.add(b2), hidden };
});
export default mlp;
