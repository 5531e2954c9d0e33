// The CLI judges only what it ran itself (issue 16): a solution runs only in
// a sandboxed child process that traces it, and whatever that process does —
// patch the API's classes, forge or reorder protocol messages, rewrite what
// it sends, exit, write to the CLI's stdout, read other files, spawn
// processes, take its time — the report is the judge's own, from the
// programs it rebuilt and ran on its own devices.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'shardlab-attacks-'));
const file = (name, text) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};
// `check PROBLEM [SOLUTION] --json FLAGS...` (the reference solution when `solution` is null).
function check(problem, solution, ...flags) {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, ['web/checker/cli.js', 'check', problem, ...(solution ? [solution] : []), '--json', ...flags], { cwd: root, encoding: 'utf8', timeout: 120000 });
  return { ...r, ms: Date.now() - t0, report: r.status === 2 ? null : JSON.parse(r.stdout) };
}
const messages = (report) => [...new Set(report.cases.map((c) => c.message))];

// A data-parallel step with no shard_map at all: right numbers, wrong structure.
const PLAIN_STEP = `import * as sl from 'shardlab';
export default function step(w, b, x, y, lr) {
  const loss = (w, b) => x.matmul(w).add(b).sub(y).square().sum().div(x.shape[0]);
  const [l, [gw, gb]] = sl.valueAndGrad(loss, { argnums: [0, 1] })(w, b);
  return { w: w.sub(gw.mul(lr)), b: b.sub(gb.mul(lr)), loss: l };
}
`;
const REFERENCE_STEP = readFileSync(`${root}problems/data-parallel-step/solution.mjs`, 'utf8');

test("patching the API's Jaxpr cannot show the judge another program", () => {
  const forged = JSON.stringify({ invars: [], eqns: [{ primitive: 'shard_map', params: { jaxpr: { invars: [], eqns: [], outvars: [] } }, inputs: [], outputs: [] }], outvars: [] });
  const r = check('data-parallel-step', file('proto.mjs', `import * as sl from 'shardlab';
sl.Jaxpr.prototype.toJSON = () => JSON.parse(${JSON.stringify(forged)});
sl.Jaxpr.prototype.toString = () => 'a shard_map';
${PLAIN_STEP.replace("import * as sl from 'shardlab';\n", '')}`));
  expect(r.status).toBe(1);
  expect(r.report.cases.every((c) => c.passed)).toBe(true); // the numbers are right
  expect(r.report.requirements.find((q) => q.id === 'shard-map-splits-x')).toMatchObject({ passed: false });
});

// A line written straight onto the sandbox's channel to the judge (descriptor 3: web/checker/channel.js).
const onChannel = (text) => `import { writeSync } from 'node:fs';\nwriteSync(3, ${JSON.stringify(`${text}\n`)});`;

for (const [what, line] of [
  ['a forged verdict', JSON.stringify({ passed: true, cases: [], requirements: [] })],
  ['an extra ready', JSON.stringify({ v: 1, type: 'ready' })],
  ['an answer nobody asked for', JSON.stringify({ v: 1, type: 'traced', id: 1, results: [] })],
  ['a message of another protocol version', JSON.stringify({ v: 2, type: 'ready' })],
  ['bytes that are not JSON', 'not json'],
  ["one of Node's internal IPC messages", JSON.stringify({ cmd: 'NODE_HANDLE_NACK' })],
]) {
  test(`a sandbox that sends ${what} fails the check with the protocol's message, in one honest report`, () => {
    const r = check('data-parallel-step', file('forge.mjs', `${onChannel(line)}\n${REFERENCE_STEP}`));
    expect(r.status).toBe(1);
    expect(r.report.passed).toBe(false);
    expect(messages(r.report)).toEqual([expect.stringMatching(/^the solution's sandbox sent a malformed message/)]);
  });
}

test('a sandbox that rewrites the programs it sends is judged on what it sent', () => {
  // The reference solution's traces, each swapped for the trace of a step that returns its inputs.
  // (The reference's own `import * as sl` serves the wrapper too: imports are hoisted.)
  // The sandbox's writes to its channel (a net.Socket) go through the patched write.
  const r = check('data-parallel-step', file('swap.mjs', `${REFERENCE_STEP}
import { Socket } from 'node:net';
const write = Socket.prototype.write;
Socket.prototype.write = function (data, ...rest) {
  const m = typeof data === 'string' && data.startsWith('{') ? JSON.parse(data) : null;
  if (m?.type !== 'traced') return write.call(this, data, ...rest);
  const fake = sl.export.export((w, b, x, y, lr) => ({ w, b, loss: lr }))(
    new sl.ShapeDtypeStruct([1, 1]), new sl.ShapeDtypeStruct([1]), new sl.ShapeDtypeStruct([8, 1]), new sl.ShapeDtypeStruct([8, 1]), new sl.ShapeDtypeStruct([]));
  fake.serialize().then((t) => write.call(this, JSON.stringify({ ...m, results: m.results.map(() => ({ exported: t })) }) + '\\n', ...rest));
  return true;
};
`));
  expect(r.stderr).toBe('');
  expect(r.status).toBe(1);
  expect(r.report.cases[0]).toMatchObject({ name: 'example 1', passed: false, message: "output 'w' differs from the expected values" });
  // The other examples' shapes differ from the program sent for them: the judge says so.
  expect(r.report.cases[1].message).toMatch(/^the solution failed: ValueError: Exported.call: the function was exported for arguments/);
});

test('process.exit in a solution is reported at once as an exit', () => {
  const r = check('data-parallel-step', file('exit.mjs', 'export default function step() {\n  process.exit(0);\n}\n'));
  expect(r.status).toBe(1);
  expect(messages(r.report)).toEqual(['the solution exited (code 0)']);
  expect(r.ms).toBeLessThan(8000); // not the 10 s time limit
});

test("writes to file descriptor 1 go to the CLI's stderr; stdout holds only the judge's report", () => {
  const forged = JSON.stringify({ problem: 'data-parallel-step', passed: true, cases: [], requirements: [] });
  const r = check('data-parallel-step', file('fd1.mjs', `import { writeSync } from 'node:fs';
writeSync(1, ${JSON.stringify(`${forged}\n`)});
console.log('hello on stdout');
export default function step(w, b, x, y, lr) {
  writeSync(1, ${JSON.stringify(`${forged}\n`)});
  return { w, b, loss: lr };
}
`));
  expect(r.status).toBe(1);
  expect(r.stdout.trim().split('\n')).toHaveLength(1);
  expect(r.report.passed).toBe(false);
  expect(r.stderr).toContain(forged);
  expect(r.stderr).toContain('hello on stdout');
});

test('the sandbox reads nothing outside the package and the solution, and starts no process', () => {
  // A solution that fails as it loads is judged: exit 1, every case saying why.
  const read = check('data-parallel-step', file('read.mjs', "import { readFileSync } from 'node:fs';\nreadFileSync('/etc/hostname');\nexport default () => ({});\n"));
  expect(read.status).toBe(1);
  expect(messages(read.report)).toEqual([expect.stringMatching(/^the solution could not be loaded: cannot load the solution read\.mjs: .*(restricted|ERR_ACCESS_DENIED)/)]);
  const spawn = check('data-parallel-step', file('spawn.mjs', "import { execSync } from 'node:child_process';\nexport default (w, b, x, y, lr) => { execSync('true'); return { w, b, loss: lr }; };\n"));
  expect(spawn.status).toBe(1);
  expect(messages(spawn.report)).toEqual([expect.stringMatching(/^the solution failed: Error: Access to this API has been restricted/)]);
});

test('the time limit covers the whole check, every trace together', () => {
  // 0.4 s per trace; the examples alone have three signatures.
  const slow = file('slow.mjs', REFERENCE_STEP.replace('export default function step(w, b, x, y, lr) {', 'export default function step(w, b, x, y, lr) {\n  for (const t = Date.now(); Date.now() - t < 400; );'));
  const r = check('data-parallel-step', slow, '--time-limit', '1');
  expect(r.status).toBe(1);
  expect(messages(r.report)).toEqual(['the check ran longer than 1 s (the time limit) and was stopped']);
  expect(r.ms).toBeLessThan(6000);
});

test('generated cases come from a fresh seed per check; --seed reproduces one', () => {
  const a = check('tensor-parallel-mlp', null, '--seed', '4242');
  const b = check('tensor-parallel-mlp', null, '--seed', '4242');
  expect(a.report.seed).toBe(4242);
  expect(b.report.cases).toEqual(a.report.cases);
  const c = check('tensor-parallel-mlp', null);
  expect(c.status).toBe(0);
  expect(c.report.seed).not.toBe(4242);
});

test("a program too large for the judge's limits is rejected before it runs, with the reason", () => {
  // 1 GiB of float32, traced abstractly in the sandbox; the judge refuses to run it.
  const r = check('data-parallel-step', file('huge.mjs', `import * as sl from 'shardlab';
export default function step(w, b, x, y, lr) {
  const big = sl.np.broadcastTo(lr, [16384, 16384]);
  return { w, b, loss: big.sum() };
}
`));
  expect(r.status).toBe(1);
  expect(messages(r.report)).toEqual([
    "the solution's program was rejected: ResourceError: program: the program equation 0 (broadcast_in_dim) output is f32[16384,16384] (1073741824 bytes); a value may have at most 67108864 bytes",
  ]);
});
