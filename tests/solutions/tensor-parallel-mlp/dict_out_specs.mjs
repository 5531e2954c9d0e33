// A correct solution the checker once rejected: the shard_map's result is
// an object with object outSpecs, returned as it is (its keys in another
// order than the problem's), b2 added inside after the psum.
// passes
import * as sl from 'shardlab';

const { P, lax, nn } = sl;

export default function mlp(x, w1, b1, w2, b2) {
  const mesh = sl.makeMesh([8], ['model']);
  const local = (x, w1, b1, w2, b2) => {
    const h = nn.relu(x.matmul(w1).add(b1));
    return { hidden: h, out: lax.psum(h.matmul(w2), 'model').add(b2) };
  };
  const inSpecs = [P(), P(null, 'model'), P('model'), P('model', null), P()];
  return sl.shardMap(local, { mesh, inSpecs, outSpecs: { hidden: P(null, 'model'), out: P() } })(x, w1, b1, w2, b2);
}
