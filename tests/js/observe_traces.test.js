// observeTraces: each program a jit call or makeJaxpr traces is reported
// once (a jit once per argument signature), eager operations are not, and
// null stops the reports.
import { afterEach, beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';

const { P, lax, np } = sl;
beforeAll(() => sl.init());
afterEach(() => sl.observeTraces(null));

test('jit and makeJaxpr report their programs; eager operations and cached calls do not; null stops', async () => {
  const seen = [];
  sl.observeTraces(({ kind, jaxpr }) => seen.push({ kind, text: String(jaxpr), json: jaxpr.toJSON() }));
  const mesh = sl.makeMesh([8], ['x']);
  const total = sl.jit((a) => sl.shardMap((b) => lax.psum(np.sum(b), 'x'), { mesh, inSpecs: P('x'), outSpecs: P() })(a));
  const a = np.arange(16).astype('float32');
  expect(await (await total(a)).item()).toBe(120);
  await total(a); // cached: not traced again
  expect(seen.map((s) => s.kind)).toEqual(['jit']);
  expect(seen[0].text).toContain("psum[axes=('x',)]");
  expect(seen[0].json.eqns.map((e) => e.primitive)).toEqual(['shard_map']);
  const jaxpr = sl.makeJaxpr((x) => np.sin(x))(1.0);
  expect(seen.map((s) => s.kind)).toEqual(['jit', 'make_jaxpr']);
  expect(seen[1].text).toBe(String(jaxpr));
  sl.observeTraces(null);
  sl.makeJaxpr((x) => np.cos(x))(1.0);
  expect(seen).toHaveLength(2);
});
