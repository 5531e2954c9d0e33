// A browser app bundled by Vite that imports the shardlab package by name:
// the bundle must carry the wasm, its script and its worker.
import * as sl from 'shardlab';

const out = document.getElementById('result');
try {
  await sl.init();
  const mesh = sl.makeMesh([8], ['data']);
  const f = sl.jit((x) => sl.shardMap((b) => sl.lax.pmean(b, 'data'), { mesh, inSpecs: sl.P('data'), outSpecs: sl.P() })(x));
  const y = await f(sl.array([1, 2, 3, 4, 5, 6, 7, 8]));
  out.textContent = JSON.stringify(await y.tolist());
} catch (e) {
  out.textContent = `${e.name}: ${e.message}`;
}
