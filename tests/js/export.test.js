// jax.export in JS: export(f)(...shapes) traces f once, serialize() gives a
// versioned text, deserialize(text) rebuilds it in the core — checked there
// equation by equation — and call() runs it. Every malformed or hostile text
// gets a named error and leaves the runtime usable.
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';

const { P, lax } = sl;
let SCALE; // made outside the trace, so the program captures it as a constant
beforeAll(async () => {
  await sl.init();
  SCALE = sl.array([1, 0.5, 2, -1]);
});

// A shard_map step with a captured constant: exercises trees, consts and meshes.
function step(w, x) {
  const mesh = sl.makeMesh([8], ['data']);
  const body = (w, x) => lax.pmean(x.matmul(w).mul(SCALE), 'data');
  return { y: sl.shardMap(body, { mesh, inSpecs: [P(), P('data')], outSpecs: P() })(w, x), n: x.shape[0] };
}
const W = [[1, 2, 3, 4], [0, 1, 0, 1]];
const X = Array.from({ length: 16 }, (_, i) => [i / 7, 1 - i / 5]);

async function exportedText() {
  const e = sl.export.export(step)(new sl.ShapeDtypeStruct([2, 4]), new sl.ShapeDtypeStruct([16, 2]));
  try {
    return await e.serialize();
  } finally {
    e.dispose();
  }
}

test('a deserialized program runs as the jit function, bitwise', async () => {
  const text = await exportedText();
  const doc = JSON.parse(text);
  expect(doc).toMatchObject({ format: 'shardlab.exported', version: 1, inAvals: [{ dtype: 'float32', shape: [2, 4] }, { dtype: 'float32', shape: [16, 2] }] });
  expect(doc.consts).toHaveLength(1);
  const e = sl.export.deserialize(text);
  const got = await e.call(sl.array(W), sl.array(X));
  const want = await sl.jit(step)(sl.array(W), sl.array(X));
  expect(Object.keys(got)).toEqual(['y', 'n']);
  expect(Array.from(await got.y.data())).toEqual(Array.from(await want.y.data()));
  expect(await got.n.item()).toBe(16);
  expect(e.jaxpr().toString()).toBe(sl.makeJaxpr(step)(sl.array(W), sl.array(X)).toString());
  await expect(e.call(sl.array(W))).rejects.toThrow(/^Exported.call: the function was exported for arguments \[\*, \*\]\|float32\[2,4\];float32\[16,2\] but is called with \[\*\]\|float32\[2,4\]$/);
  e.dispose();
});

test('malformed and hostile texts get named errors; the runtime stays usable', async () => {
  const good = JSON.parse(await exportedText());
  const variant = (f) => {
    const d = structuredClone(good);
    f(d);
    return JSON.stringify(d);
  };
  const cases = [
    ['{', /^deserialize: the text is not JSON/],
    ['[]', /^deserialize: the text must hold an object$/],
    [variant((d) => (d.version = 2)), /^deserialize: the text is not shardlab.exported version 1/],
    [variant((d) => (d.outTree = { kind: 'object', keys: ['__proto__'], children: [{ kind: 'leaf' }] })), /^deserialize: outTree has a repeated or reserved key$/],
    [variant((d) => (d.outTree = { kind: 'leaf' })), /^deserialize: outAvals must list 1 avals$/],
    [variant((d) => (d.consts[0].data = 'AAAA')), /^deserialize: consts\[0\]\.data must be base64 of 16 bytes$/],
    [variant((d) => (d.inAvals[0].shape = [4, 2])), /^deserialize: inAvals and consts do not match the program's inputs$/],
    [variant((d) => (d.program.eqns[0].primitive = 'launch')), /^primitive: unknown primitive 'launch'/],
    [variant((d) => (d.program.eqns.at(-1).params.jaxpr.eqns = [])), /^program: .*before it is defined|^program: .*has \d+ outputs/],
    [variant((d) => (d.program.invars[0].aval.shape = [65536, 16384])), /^program: an input is f32\[65536,16384\] \(4294967296 bytes\); a value may have at most/],
  ];
  for (const [text, message] of cases) {
    let error = null;
    try {
      sl.export.deserialize(text);
    } catch (e) {
      error = e;
    }
    expect(error?.message, text.slice(0, 80)).toMatch(message);
    expect(error).toBeInstanceOf(sl.ShardLabError);
  }
  expect(() => sl.export.deserialize('x'.repeat(100), { limits: { maxTextBytes: 10 } })).toThrow(sl.ResourceError);
  // Still usable.
  const e = sl.export.deserialize(JSON.stringify(good));
  expect(await (await e.call(sl.array(W), sl.array(X))).n.item()).toBe(16);
  e.dispose();
});

test('a program with no outputs resolves its call once the run has ended: the arguments may be disposed then, and nothing is left unhandled', async () => {
  const unhandled = [];
  const record = (e) => unhandled.push(e);
  process.on('unhandledRejection', record);
  try {
    const exported = sl.export.export(() => undefined)(new sl.ShapeDtypeStruct([8, 1]));
    for (let i = 0; i < 20; i++) {
      const x = sl.array(Array.from({ length: 8 }, (_, k) => [k]));
      expect(await exported.call(x)).toBe(undefined);
      x.dispose();
    }
    exported.dispose();
    await new Promise((r) => setTimeout(r, 200));
  } finally {
    process.off('unhandledRejection', record);
  }
  expect(unhandled.map((e) => e.message)).toEqual([]);
});
