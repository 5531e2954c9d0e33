// The judge's reading of what a sandbox sends (web/checker/protocol.js) and
// its Sandbox (web/checker/sandbox.js): only well-formed messages of the
// right type, in the right order, are accepted; the first bad one, the
// sandbox's exit or the time limit ends the sandbox, and every later request
// fails with that reason.
import { expect, test } from 'vitest';
import { MALFORMED, PROTOCOL_VERSION, readSandboxMessage } from '../../web/checker/protocol.js';
import { Deadline, Sandbox } from '../../web/checker/sandbox.js';

const v = PROTOCOL_VERSION;
const starting = { started: false, ready: false, pending: null };
const loading = { started: true, ready: false, pending: null };
const waiting = { started: true, ready: true, pending: { id: 3, count: 2 } };

test('well-formed messages are read into copies of their fields', () => {
  expect(readSandboxMessage({ v, type: 'started' }, starting)).toEqual({ type: 'started' });
  expect(readSandboxMessage({ v, type: 'ready' }, loading)).toEqual({ type: 'ready' });
  expect(readSandboxMessage({ v, type: 'progress', stage: 'loading Python', fraction: 0.5 }, loading)).toEqual({ type: 'progress', stage: 'loading Python', fraction: 0.5 });
  expect(readSandboxMessage({ v, type: 'loadError', message: 'no default export' }, loading)).toEqual({ type: 'loadError', message: 'no default export' });
  const results = [{ exported: '{}' }, { error: { name: 'ShapeError', message: 'bad' } }];
  expect(readSandboxMessage({ v, type: 'traced', id: 3, results }, waiting)).toEqual({ type: 'traced', id: 3, results });
});

test('anything else is a ProtocolError carrying the malformed-message text', () => {
  const bad = [
    [null, loading],
    ['ready', loading],
    [[], loading],
    [{ type: 'ready' }, loading], // no version
    [{ v: 2, type: 'ready' }, loading],
    [{ v, type: 'ready', extra: 1 }, loading],
    [{ v, type: 'ready' }, waiting], // a second ready
    [{ v, type: 'ready' }, starting], // ready before started
    [{ v, type: 'started' }, loading], // a second started
    [{ v, type: 'started', extra: 1 }, starting],
    [{ v, type: 'loadError', message: 'late' }, waiting],
    [{ v, type: 'loadError', message: 7 }, loading],
    [{ v, type: 'progress', stage: 'x', fraction: 2 }, loading],
    [{ v, type: 'traced', id: 3, results: [] }, loading], // before ready
    [{ v, type: 'traced', id: 4, results: [{ exported: '' }, { exported: '' }] }, waiting], // another id
    [{ v, type: 'traced', id: 3, results: [{ exported: '' }] }, waiting], // too few
    [{ v, type: 'traced', id: 3, results: [{ exported: 1 }, { exported: '' }] }, waiting],
    [{ v, type: 'traced', id: 3, results: [{ exported: '', error: {} }, { exported: '' }] }, waiting],
    [{ v, type: 'traced', id: 3, results: [{ error: { name: 'E', message: 'm', stack: 's' } }, { exported: '' }] }, waiting],
    [{ v, type: 'traced', id: 3, results: [{ exported: 'x'.repeat(17 << 20) }, { exported: '' }] }, waiting],
    [{ v, type: 'verdict', passed: true }, waiting],
    [{ passed: true }, waiting],
  ];
  for (const [m, state] of bad) {
    expect(() => readSandboxMessage(m, state), JSON.stringify(m)?.slice(0, 80)).toThrow(MALFORMED);
  }
});

// A Sandbox over a fake port: `sent` collects what the judge posts.
function fake() {
  const sent = [];
  let killed = 0;
  const box = new Sandbox({ post: (m) => sent.push(m), kill: () => killed++ });
  return { box, sent, killed: () => killed };
}

test('a Sandbox answers a trace with its results, and fails for good at the first malformed message', async () => {
  const { box, sent, killed } = fake();
  box.receive({ v, type: 'progress', stage: 'starting' });
  box.receive({ v, type: 'started' });
  await box.started(new Deadline(5000));
  box.receive({ v, type: 'ready' });
  const traced = box.trace([[{ name: 'x', dtype: 'float32', shape: [8] }]], new Deadline(5000));
  await new Promise((r) => setTimeout(r));
  expect(sent).toEqual([{ v, type: 'trace', id: 1, signatures: [[{ name: 'x', dtype: 'float32', shape: [8] }]] }]);
  box.receive({ v, type: 'traced', id: 1, results: [{ exported: 'E' }] });
  expect(await traced).toEqual([{ exported: 'E' }]);
  const next = box.trace([[]], new Deadline(5000));
  await new Promise((r) => setTimeout(r));
  box.receive({ v, type: 'ready' });
  await expect(next).rejects.toThrow(`${MALFORMED} (a second 'ready')`);
  expect(killed()).toBe(1);
  await expect(box.trace([[]], new Deadline(5000))).rejects.toThrow(MALFORMED);
});

test("a Sandbox's exit, load error and time limit end it with their reasons", async () => {
  const exit = fake();
  const a = exit.box.trace([[]], new Deadline(5000));
  exit.box.exited('code 0');
  await expect(a).rejects.toMatchObject({ name: 'ExitError', message: 'the solution exited (code 0)' });
  const load = fake();
  load.box.receive({ v, type: 'loadError', message: 'cannot load the solution' });
  await expect(load.box.ready(new Deadline(5000))).rejects.toMatchObject({ name: 'LoadError', message: 'cannot load the solution' });
  const slow = fake();
  slow.box.receive({ v, type: 'started' });
  slow.box.receive({ v, type: 'ready' });
  const t0 = performance.now();
  await expect(slow.box.trace([[]], new Deadline(200))).rejects.toMatchObject({ name: 'TimeoutError', message: 'the check ran longer than 0.2 s (the time limit) and was stopped' });
  expect(performance.now() - t0).toBeLessThan(2000);
  expect(slow.killed()).toBe(1);
  // A runtime that never starts fails the startup limit, which the solution's time does not include.
  const stuck = fake();
  await expect(stuck.box.started(new Deadline(200))).rejects.toMatchObject({ name: 'TimeoutError' });
  expect(stuck.killed()).toBe(1);
});
