// psum of the devices' mean gradients: 8 times the mean gradient (pcast is done).
// fails: mean-gradient, cases
// message: psum adds the 8 of them; average them with lax.pmean
import * as sl from 'shardlab';

const { P, lax } = sl;

export default function step(w, b, x, y, lr) {
  const mesh = sl.makeMesh([sl.deviceCount()], ['data']);
  const local = (w, b, x, y) => {
    const loss = (w, b) => x.matmul(w).add(b).sub(y).square().sum().div(x.shape[0]);
    const [wv, bv] = lax.pcast([w, b], 'data', { to: 'varying' });
    const [l, [gw, gb]] = sl.valueAndGrad(loss, { argnums: [0, 1] })(wv, bv);
    const [mw, mb] = lax.psum([gw, gb], 'data');
    return { w: w.sub(mw.mul(lr)), b: b.sub(mb.mul(lr)), loss: lax.pmean(l, 'data') };
  };
  return sl.shardMap(local, { mesh, inSpecs: [P(), P(), P('data'), P('data')], outSpecs: P() })(w, b, x, y);
}
