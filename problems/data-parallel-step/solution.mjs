// Reference solution: per-device gradients of invariant parameters made
// varying with pcast, averaged with pmean.
import * as sl from 'shardlab';

const { P, lax } = sl;

export default function step(w, b, x, y, lr) {
  const mesh = sl.makeMesh([sl.deviceCount()], ['data']); // every device: 8 in the checker
  const local = (w, b, x, y) => {
    const loss = (w, b) => x.matmul(w).add(b).sub(y).square().sum().div(x.shape[0]);
    const [wv, bv] = lax.pcast([w, b], 'data', { to: 'varying' });
    const [l, [gw, gb]] = sl.valueAndGrad(loss, { argnums: [0, 1] })(wv, bv);
    const [mw, mb, ml] = lax.pmean([gw, gb, l], 'data');
    return { w: w.sub(mw.mul(lr)), b: b.sub(mb.mul(lr)), loss: ml };
  };
  return sl.shardMap(local, { mesh, inSpecs: [P(), P(), P('data'), P('data')], outSpecs: P() })(w, b, x, y);
}
