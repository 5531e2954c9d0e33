// The CLI's sandbox is walled off by the OS (issue 33; web/checker/isolation.js):
// each attack a solution tried on the judge through signals, sockets, the
// environment, the file system or memory is tried here again, under
// --require-isolation (this machine has bubblewrap and user namespaces),
// and none reaches anything outside the sandbox. A machine without
// bubblewrap still checks, and says so; --require-isolation refuses it.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'shardlab-isolation-'));
const file = (name, text) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

// `shardlab check PROBLEM SOLUTION --json --require-isolation ...` as a child: {status, stdout, stderr, report, ms}.
function check(problem, solution, { flags = ['--require-isolation'], env = process.env, onStart = () => {} } = {}) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, ['web/checker/cli.js', 'check', problem, ...(solution ? [solution] : []), '--json', ...flags], { cwd: root, env });
    onStart(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120000);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr, ms: Date.now() - t0, report: status === 1 || status === 0 ? JSON.parse(stdout) : null });
    });
  });
}

// What the attacks below print on stderr: "ATTACK <name> <outcome>" lines.
const outcomes = (stderr) => Object.fromEntries([...stderr.matchAll(/^ATTACK (\S+) (.*)$/gm)].map((m) => [m[1], m[2]]));

// A wrong ring solution (every output zero) that runs `attack` (a JS module body with top-level await) as it loads.
const ringWith = (attack) => `import * as sl from 'shardlab';
const report = (name, outcome) => console.error('ATTACK', name, outcome);
${attack}
export default function ring(x) {
  return { out: sl.shardMap((b) => b.mul(0), { mesh: sl.makeMesh([8], ['data']), inSpecs: sl.P('data'), outSpecs: sl.P('data') })(x) };
}
`;

// The inspector attack as it was found: SIGUSR1 to the judge opens its inspector on 127.0.0.1:9229;
// a WebSocket to it evaluates code in the judge that rewrites its report to a pass and its exit code to 0.
const INSPECTOR_ATTACK = `import net from 'node:net';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// Writes each of \`writes\` in turn (200 ms apart) on one connection to the inspector's port; resolves to what came back.
const talk = (writes, wait) => new Promise((resolve) => {
  const s = net.connect(9229, '127.0.0.1');
  let got = '';
  s.on('connect', () => writes.forEach((w, i) => setTimeout(() => s.write(w), 200 * i)));
  s.on('data', (d) => (got += d));
  s.on('error', (e) => resolve('error ' + e.code));
  setTimeout(() => (s.destroy(), resolve(got)), wait);
});
const FORGE = "const w = process.stdout.write.bind(process.stdout); process.stdout.write = (s, ...r) => w(String(s).replace(/\\"passed\\":false/g, '\\"passed\\":true'), ...r); process.exit = ((e) => () => e(0))(process.exit); 'forged'";
try {
  process.kill(process.ppid, 'SIGUSR1');
  report('signal', 'sent to ' + process.ppid);
} catch (e) {
  report('signal', e.code);
}
await sleep(700);
const list = await talk(['GET /json/list HTTP/1.0\\r\\nHost: 127.0.0.1\\r\\n\\r\\n'], 500);
const path = /ws:\\/\\/127\\.0\\.0\\.1(?::9229)?(\\/[\\w-]+)/.exec(list)?.[1];
report('inspector', path ? 'found' : 'none');
if (path) {
  const payload = Buffer.from(JSON.stringify({ id: 1, method: 'Runtime.evaluate', params: { expression: FORGE } }));
  const head = Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 255, 0, 0, 0, 0]);
  const upgrade = 'GET ' + path + ' HTTP/1.1\\r\\nHost: 127.0.0.1:9229\\r\\nUpgrade: websocket\\r\\nConnection: Upgrade\\r\\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\\r\\nSec-WebSocket-Version: 13\\r\\n\\r\\n';
  report('evaluate', /forged/.test(await talk([upgrade, Buffer.concat([head, payload])], 1000)) ? 'forged' : 'no answer');
}
`;

test("the inspector attack cannot reach the judge: the wrong ring solution fails, exit 1, in JSON and text", async () => {
  const solution = file('inspector.mjs', ringWith(INSPECTOR_ATTACK));
  for (const flags of [['--require-isolation'], ['--require-isolation', '--time-limit', '20']]) {
    const r = await check('ring-allreduce-ppermute', solution, { flags });
    expect(r.status, r.stderr).toBe(1);
    expect(r.report.isolation).toBe('bubblewrap');
    expect(r.report.passed).toBe(false);
    expect(r.report.cases.every((c) => !c.passed)).toBe(true);
    // The sandbox is the first process of its own PID namespace: it has no parent to signal.
    expect(outcomes(r.stderr).signal).toMatch(/^(sent to 0|ESRCH|EPERM)$/);
  }
  // The same attack in text mode.
  const text = await new Promise((resolve) => {
    const child = spawn(process.execPath, ['web/checker/cli.js', 'check', 'ring-allreduce-ppermute', solution, '--require-isolation'], { cwd: root });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('close', (status) => resolve({ status, stdout }));
  });
  expect(text.status).toBe(1);
  expect(text.stdout).toMatch(/^ring-allreduce-ppermute \(seed \d+\): failed in/);
}, 120000);

test('the inspector attack from Python (pyodide.code.run_js) cannot reach the judge either', async () => {
  const js = INSPECTOR_ATTACK.replace("import net from 'node:net';", "const net = process.getBuiltinModule ? process.getBuiltinModule('node:net') : await import('node:net');");
  const solution = file(
    'inspector.py',
    `import jax
from jax.sharding import PartitionSpec as P
from pyodide.code import run_js

run_js(${JSON.stringify(`(async () => { const report = (name, outcome) => console.error('ATTACK', name, outcome); ${js} })()`)})
try:
    import js
    js.process.kill(js.process.ppid, "SIGUSR1")
    print("ATTACK python-signal sent")
except Exception as e:
    print("ATTACK python-signal", type(e).__name__)


def ring_all_reduce(x):
    mesh = jax.make_mesh((8,), ("data",))
    return {"out": jax.shard_map(lambda b: b * 0, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)}
`,
  );
  const r = await check('ring-allreduce-ppermute', solution);
  expect(r.status, r.stderr).toBe(1);
  expect(r.report.isolation).toBe('bubblewrap');
  expect(r.report.passed).toBe(false);
}, 120000);

test("the sandbox reads neither the reference solutions nor the judge's files, through a path or a symlink, and writes nothing", async () => {
  const folder = join(dir, 'links');
  mkdirSync(folder, { recursive: true });
  symlinkSync(join(root, 'problems'), join(folder, 'refs'));
  const marker = join(dir, 'written-by-the-sandbox');
  const solution = join(folder, 'reader.mjs');
  writeFileSync(
    solution,
    ringWith(`import { readFileSync, writeFileSync } from 'node:fs';
const attempt = (name, f) => { try { f(); report(name, 'succeeded'); } catch (e) { report(name, e.code ?? e.name); } };
attempt('read-reference', () => readFileSync(${JSON.stringify(join(root, 'problems/ring-allreduce-ppermute/solution.py'))}));
attempt('read-symlink', () => readFileSync(new URL('./refs/ring-allreduce-ppermute/solution.py', import.meta.url)));
attempt('read-package-json', () => readFileSync(${JSON.stringify(join(root, 'package.json'))}));
attempt('read-proc', () => readFileSync('/proc/1/environ'));
attempt('write', () => writeFileSync(${JSON.stringify(marker)}, 'x'));
attempt('write-sandbox', () => writeFileSync(new URL('./x', import.meta.url), 'x'));`),
  );
  const r = await check('ring-allreduce-ppermute', solution);
  expect(r.status, r.stderr).toBe(1);
  const o = outcomes(r.stderr);
  for (const name of ['read-reference', 'read-symlink', 'read-package-json', 'read-proc', 'write', 'write-sandbox']) {
    expect(o[name], name).toMatch(/^(ERR_ACCESS_DENIED|ENOENT|EACCES|EROFS)$/);
  }
  expect(existsSync(marker)).toBe(false);
  expect(r.stderr).not.toContain(readFileSync(join(root, 'problems/ring-allreduce-ppermute/solution.py'), 'utf8').split('\n')[0]);
}, 120000);

test('the sandbox reaches no socket of the host and gets none of its environment', async () => {
  let connections = 0;
  const server = createServer((s) => {
    connections++;
    s.destroy();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  const solution = file(
    'network.mjs',
    ringWith(`import net from 'node:net';
const outcome = await new Promise((resolve) => {
  const s = net.connect(${port}, '127.0.0.1');
  s.on('connect', () => (s.destroy(), resolve('connected')));
  s.on('error', (e) => resolve(e.code));
});
report('connect', outcome);
report('environment', JSON.stringify(process.env));`),
  );
  const r = await check('ring-allreduce-ppermute', solution, { env: { ...process.env, SHARDLAB_TEST_SECRET: 'hunter2' } });
  server.close();
  expect(r.status, r.stderr).toBe(1);
  const o = outcomes(r.stderr);
  expect(o.connect).toMatch(/^(ECONNREFUSED|ENETUNREACH|EACCES)$/);
  expect(connections).toBe(0);
  expect(o.environment).not.toContain('hunter2');
  // Only what bubblewrap sets itself (the working directory).
  expect(Object.keys(JSON.parse(o.environment)).filter((k) => k !== 'PWD')).toEqual([]);
}, 120000);

test("SIGSTOP and SIGKILL to every process it can name reach nothing outside the sandbox: the judge reports, another check and the host's processes go on", async () => {
  const victim = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
  const stopper = file('stop.mjs', ringWith(`for (const pid of [-1, process.ppid, ${victim.pid}]) { try { process.kill(pid, 'SIGSTOP'); report('stop' + pid, 'sent'); } catch (e) { report('stop' + pid, e.code); } }`));
  const killer = file('kill.mjs', ringWith(`for (const pid of [${victim.pid}, -1]) { try { process.kill(pid, 'SIGKILL'); report('kill' + pid, 'sent'); } catch (e) { report('kill' + pid, e.code); } }`));
  // A reference check runs beside both attackers.
  const [stopped, killed, reference] = await Promise.all([
    check('ring-allreduce-ppermute', stopper),
    check('ring-allreduce-ppermute', killer),
    check('ring-allreduce-ppermute', null),
  ]);
  expect(reference.status, reference.stderr).toBe(0);
  expect(reference.report.passed).toBe(true);
  // Each attacker is judged as usual: its wrong numbers fail.
  for (const [r, name] of [[stopped, 'stop'], [killed, 'kill']]) {
    expect(r.status, r.stderr).toBe(1);
    expect(r.report.cases[0].message).toBe("output 'out' differs from the expected values");
    // The host's process is not even there to be named.
    expect(outcomes(r.stderr)[`${name}${victim.pid}`]).toBe('ESRCH');
  }
  expect(victim.exitCode).toBe(null);
  expect(victim.signalCode).toBe(null);
  victim.kill();
}, 120000);

test('a solution that blocks (no CPU time used) is ended by the wall-clock backstop, 3 times the limit', async () => {
  const sleeper = file('sleep.mjs', ringWith('').replace('export default function ring(x) {', 'export default function ring(x) {\n  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60000);'));
  const r = await check('ring-allreduce-ppermute', sleeper, { flags: ['--require-isolation', '--time-limit', '1'] });
  expect(r.status, r.stderr).toBe(1);
  expect([...new Set(r.report.cases.map((c) => c.message))]).toEqual(['the check ran longer than 1 s (the time limit) and was stopped']);
  expect(r.ms).toBeGreaterThan(3000);
  expect(r.ms).toBeLessThan(20000);
}, 120000);

test('the sandbox has a memory cap: 4 GiB of allocations fail inside it, and the check reports', async () => {
  const solution = file('memory.mjs', ringWith("const held = []; try { for (let i = 0; i < 40; i++) held.push(new ArrayBuffer(100 << 20)); report('allocate', 'succeeded'); } catch (e) { report('allocate', 'failed after ' + held.length * 100 + ' MiB'); }"));
  const r = await check('ring-allreduce-ppermute', solution);
  expect(r.status, r.stderr).toBe(1);
  const [, mib] = /^failed after (\d+) MiB$/.exec(outcomes(r.stderr).allocate) ?? [];
  expect(Number(mib)).toBeLessThanOrEqual(3 * 1024);
}, 120000);

test("without bubblewrap the check still runs and says so; --require-isolation refuses it (exit 2)", async () => {
  // A machine without bubblewrap: a PATH that does not hold it.
  const env = { ...process.env, PATH: '/nonexistent' };
  const plain = await check('ring-allreduce-ppermute', null, { flags: [], env });
  expect(plain.status, plain.stderr).toBe(0);
  expect(plain.report.isolation).toBe('none');
  expect(plain.report.isolationNote).toMatch(/bubblewrap is not installed/);
  const refused = await check('ring-allreduce-ppermute', null, { flags: ['--require-isolation'], env });
  expect(refused.status).toBe(2);
  expect(refused.stdout).toBe('');
  expect(refused.stderr).toMatch(/^shardlab: the sandbox cannot be isolated on this machine: bubblewrap is not installed/);
  // A kernel that refuses user namespaces (as user.max_user_namespaces = 0 does): the CLI run inside a user namespace that may not nest.
  const nested = await new Promise((resolve) => {
    const child = spawn('bwrap', ['--unshare-user', '--disable-userns', '--dev-bind', '/', '/', process.execPath, 'web/checker/cli.js', 'check', 'ring-allreduce-ppermute'], { cwd: root });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('close', (status) => resolve({ status, stdout }));
  });
  expect(nested.status).toBe(0);
  expect(nested.stdout).toMatch(/^ {2}note: the sandbox was not isolated by the OS: bubblewrap cannot create the sandbox's namespaces \(.*\); user namespaces may be turned off \(sysctl user\.max_user_namespaces/m);
  // Unisolated, the judge still ignores SIGUSR1 (no inspector opens), and a symlink beside the solution leads nowhere.
  const r = await check('ring-allreduce-ppermute', file('plain-inspector.mjs', ringWith(INSPECTOR_ATTACK)), { flags: [], env });
  expect(r.status, r.stderr).toBe(1);
  expect(r.report.passed).toBe(false);
  expect(outcomes(r.stderr).inspector).toBe('none');
}, 120000);

// As an unprivileged user the namespaces come from the user's own user namespace: the same isolation.
// (Run where the tests run as root, as CI does here: the check runs again as `nobody`.)
test.runIf(process.getuid?.() === 0 && existsSync('/usr/sbin/runuser'))('an unprivileged user gets the same isolation (the check run as nobody, --require-isolation)', async () => {
  const r = spawnSync('/usr/sbin/runuser', ['-u', 'nobody', '--', process.execPath, 'web/checker/cli.js', 'check', 'ring-allreduce-ppermute', '--json', '--require-isolation'], { cwd: root, encoding: 'utf8', timeout: 120000 });
  expect(r.status, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout)).toMatchObject({ passed: true, isolation: 'bubblewrap' });
}, 120000);
