// The update is applied to the varying copy pcast made, not to w and b.
// fails: shard-map-splits-x, no-full-batch-in-body, reduces-over-data, mean-gradient, lr-traced, no-branch-on-traced, cases
// message: the returned w differs from device to device: it is computed from the varying copy
import * as sl from 'shardlab';

const { P, lax } = sl;

export default function step(w, b, x, y, lr) {
  const mesh = sl.makeMesh([sl.deviceCount()], ['data']);
  const local = (w, b, x, y) => {
    const loss = (w, b) => x.matmul(w).add(b).sub(y).square().sum().div(x.shape[0]);
    const [wv, bv] = lax.pcast([w, b], 'data', { to: 'varying' });
    const [l, [gw, gb]] = sl.valueAndGrad(loss, { argnums: [0, 1] })(wv, bv);
    const [mw, mb, ml] = lax.pmean([gw, gb, l], 'data');
    return { w: wv.sub(mw.mul(lr)), b: bv.sub(mb.mul(lr)), loss: ml };
  };
  return sl.shardMap(local, { mesh, inSpecs: [P(), P(), P('data'), P('data')], outSpecs: P() })(w, b, x, y);
}
