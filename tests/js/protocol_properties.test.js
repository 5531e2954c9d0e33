// Property tests (fast-check) of everything the judge reads from a sandbox
// (issue 33): any value as a protocol message, in any state; any bytes on
// the CLI's channel, cut anywhere; any sequence of messages to a Sandbox;
// any text, and any change to a valid export, given to deserialize. The
// judge answers each with a value or its own error, never another
// exception, a crash or a hang. FUZZ_RUNS sets the runs per property (300
// in npm test; npm run fuzz runs many more).
import { EventEmitter } from 'node:events';
import fc from 'fast-check';
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { lineChannel } from '../../web/checker/channel.js';
import { MAX_ERROR_CHARS, PROTOCOL_VERSION, ProtocolError, readSandboxMessage } from '../../web/checker/protocol.js';
import { Deadline, Sandbox } from '../../web/checker/sandbox.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const v = PROTOCOL_VERSION;

beforeAll(() => sl.init());

const state = fc.record({ started: fc.boolean(), ready: fc.boolean(), pending: fc.option(fc.record({ id: fc.nat(5), count: fc.nat(4) }), { nil: null }) });
const result = fc.oneof(
  fc.record({ exported: fc.string() }),
  fc.record({ error: fc.record({ name: fc.string({ maxLength: 120 }), message: fc.string() }) }),
  fc.anything(),
);
// Messages near the valid ones (every type, valid and invalid fields), and anything at all.
const message = fc.oneof(
  fc.record(
    {
      v: fc.constantFrom(v, v + 1, undefined, '1'),
      type: fc.constantFrom('progress', 'started', 'ready', 'loadError', 'traced', 'verdict', undefined),
      id: fc.oneof(fc.nat(5), fc.string()),
      results: fc.oneof(fc.array(result, { maxLength: 5 }), fc.anything()),
      stage: fc.oneof(fc.string(), fc.anything()),
      fraction: fc.oneof(fc.double(), fc.anything()),
      message: fc.oneof(fc.string(), fc.anything()),
      extra: fc.anything(),
    },
    { requiredKeys: ['v', 'type'] },
  ),
  fc.anything(),
);

test('readSandboxMessage gives a copy of a message of a known type, or a ProtocolError, for any value in any state', () => {
  fc.assert(
    fc.property(message, state, (m, s) => {
      let read;
      try {
        read = readSandboxMessage(m, s);
      } catch (e) {
        expect(e).toBeInstanceOf(ProtocolError);
        return;
      }
      expect(['progress', 'started', 'ready', 'loadError', 'traced']).toContain(read.type);
      expect(read).not.toBe(m);
      if (read.type === 'traced') {
        expect(read.results).toHaveLength(s.pending.count);
        for (const r of read.results) expect(typeof r.exported === 'string' || (typeof r.error.name === 'string' && r.error.message.length <= MAX_ERROR_CHARS)).toBe(true);
      }
    }),
    { numRuns: RUNS },
  );
});

test('a well-formed answer to the pending request is always accepted', () => {
  fc.assert(
    fc.property(fc.nat(9), fc.array(fc.oneof(fc.record({ exported: fc.string() }), fc.record({ error: fc.record({ name: fc.string({ maxLength: 100 }), message: fc.string({ maxLength: 200 }) }) })), { maxLength: 6 }), (id, results) => {
      const read = readSandboxMessage({ v, type: 'traced', id, results }, { started: true, ready: true, pending: { id, count: results.length } });
      expect(read).toEqual({ type: 'traced', id, results });
    }),
    { numRuns: RUNS },
  );
});

// A socket as lineChannel reads it: 'data' events of Buffers.
function fakeSocket() {
  const s = new EventEmitter();
  s.pause = () => {};
  s.write = () => true;
  s.destroy = () => {};
  return s;
}

test('the CLI channel gives every line of JSON as one message, in order, however the bytes are cut', () => {
  fc.assert(
    fc.property(fc.array(fc.jsonValue(), { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 10 }), (values, cuts) => {
      const bytes = Buffer.from(values.map((x) => `${JSON.stringify(x)}\n`).join(''));
      const got = [];
      const socket = fakeSocket();
      lineChannel(socket, { onMessage: (m) => got.push(m), onMalformed: (d) => got.push({ malformed: d }) });
      const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
      let from = 0;
      for (const c of [...at, bytes.length]) {
        socket.emit('data', bytes.subarray(from, c));
        from = c;
      }
      expect(got).toEqual(values.map((x) => JSON.parse(JSON.stringify(x))));
    }),
    { numRuns: RUNS },
  );
});

test('any bytes on the CLI channel give messages and at most one malformed report, never an exception; nothing after it', () => {
  fc.assert(
    fc.property(fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 6 }), fc.nat(200), (chunks, maxLineBytes) => {
      const events = [];
      const socket = fakeSocket();
      lineChannel(socket, { onMessage: (m) => events.push('message'), onMalformed: () => events.push('malformed'), maxLineBytes: maxLineBytes + 1 });
      for (const c of chunks) socket.emit('data', Buffer.from(c));
      const bad = events.indexOf('malformed');
      if (bad !== -1) expect(events.slice(bad + 1)).toEqual([]);
    }),
    { numRuns: RUNS },
  );
});

test('a Sandbox fed any sequence of messages never throws, and a trace always settles', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(message, { maxLength: 8 }), async (messages) => {
      let killed = 0;
      const box = new Sandbox({ post: () => {}, kill: () => killed++ });
      const traced = box.trace([[{ name: 'x', dtype: 'float32', shape: [8] }]], new Deadline(50));
      for (const m of messages) box.receive(m);
      box.receive({ v, type: 'started' });
      box.receive({ v, type: 'ready' });
      const outcome = await traced.then(
        (r) => ({ resolved: r }),
        (e) => ({ rejected: e.name }),
      );
      if (outcome.rejected) expect(['ProtocolError', 'TimeoutError', 'LoadError', 'ExitError']).toContain(outcome.rejected);
      expect(killed).toBeLessThanOrEqual(1);
    }),
    { numRuns: Math.max(20, RUNS / 10) },
  );
});

// A small valid export's text, parsed: the starting point of the mutations.
async function validDoc() {
  const mesh = sl.makeMesh([8], ['data']);
  const e = sl.export.export((x) => ({ out: sl.shardMap((b) => sl.lax.psum(b.mul(2), 'data'), { mesh, inSpecs: sl.P('data'), outSpecs: sl.P() })(x) }))(new sl.ShapeDtypeStruct([8, 2]));
  try {
    return JSON.parse(await e.serialize());
  } finally {
    e.dispose();
  }
}

// deserialize's outcome: an Exported (disposed at once) or a ShardLabError; anything else fails the property.
function deserializes(text) {
  try {
    sl.export.deserialize(text, { limits: { maxEquations: 200, maxWork: 1e6 } }).dispose();
  } catch (e) {
    expect(e).toBeInstanceOf(sl.ShardLabError);
  }
}

test('deserialize of any text gives an Exported or a ShardLabError (ValueError, ResourceError, ...)', () => {
  fc.assert(
    fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((j) => JSON.stringify(j))), deserializes),
    { numRuns: RUNS },
  );
});

// A path to a value inside `doc` chosen by `picks`, and `doc` with that value replaced by `value`.
function mutate(doc, picks, value) {
  const copy = structuredClone(doc);
  let node = copy;
  for (const p of picks) {
    const keys = Object.keys(node);
    const key = keys[p % keys.length];
    const child = node[key];
    if (child === null || typeof child !== 'object' || !Object.keys(child).length) {
      node[key] = value;
      return copy;
    }
    node = child;
  }
  const keys = Object.keys(node);
  node[keys[picks.length % keys.length]] = value;
  return copy;
}

test('deserialize of a valid export with any one value changed anywhere (envelope, trees, constants, program) gives an Exported or a ShardLabError', async () => {
  const doc = await validDoc();
  deserializes(JSON.stringify(doc)); // the unchanged one reads
  fc.assert(
    fc.property(fc.array(fc.nat(), { minLength: 1, maxLength: 12 }), fc.jsonValue(), (picks, value) => deserializes(JSON.stringify(mutate(doc, picks, value)))),
    { numRuns: RUNS },
  );
});
