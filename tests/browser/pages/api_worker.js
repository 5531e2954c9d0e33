// A module Web Worker running the shardlab API (as a checker runs untrusted
// solutions): it computes a psum on 8 devices and posts the result back.
import * as sl from '/web/lib/index.js';

self.onmessage = async () => {
  try {
    await sl.init();
    const mesh = sl.makeMesh([8], ['data']);
    const f = sl.jit((x) => sl.shardMap((b) => sl.lax.psum(b.square(), 'data'), { mesh, inSpecs: sl.P('data'), outSpecs: sl.P() })(x));
    const y = await f(sl.array([1, 2, 3, 4, 5, 6, 7, 8]));
    self.postMessage({ ok: true, value: await y.tolist() });
  } catch (e) {
    self.postMessage({ ok: false, error: `${e.name}: ${e.message}` });
  }
};
