// One library of the peer benchmark behind a small message protocol, so the
// same measurements drive it in a process of its own (child.mjs, in Node) or
// directly (page.mjs, in Chromium): {setup: case, small}, {output: case}
// (-> {output: {key: Float32Array}}), {time: case, reps} (-> {ms}: per run),
// {dispose: case}.
import { CASES, inputsOf } from './cases.mjs';

/** ask(message) -> the answer, for the library module `impl` ({setup}). */
export function makeHost(impl) {
  const live = new Map(); // case -> its setup
  return async function ask(m) {
    if (m.setup) {
      const c = CASES[m.setup];
      live.set(m.setup, await impl.setup(m.setup, inputsOf(m.setup, m.small ? c.small : c.dims)));
      await live.get(m.setup).run(); // the first call traces and compiles
      return { ok: true };
    }
    if (m.output) return { output: await live.get(m.output).output() };
    if (m.time) {
      const t0 = performance.now();
      for (let i = 0; i < m.reps; i++) await live.get(m.time).run();
      return { ms: (performance.now() - t0) / m.reps };
    }
    if (m.dispose) {
      live.get(m.dispose).dispose();
      live.delete(m.dispose);
      return { ok: true };
    }
    throw new Error(`unknown message ${JSON.stringify(m)}`);
  };
}
