// The CLI with Python: `shardlab check <id> solution.py` (the same report,
// --json and exit codes as for JavaScript), every problem's Python reference
// through it, and `shardlab run script.py` (prints what the script prints;
// exit 1 with Python's traceback on stderr after an uncaught exception).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { PROBLEM_IDS } from '../../web/checker/problems.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
// The CLI as a child process; `pinned`: on two cores only (taskset), as this machine kind has, however many the host has.
const cliOn = (pinned, ...args) =>
  new Promise((resolve) => {
    const [command, ...prefix] = pinned && PIN ? [...PIN, process.execPath] : [process.execPath];
    const child = spawn(command, [...prefix, 'web/checker/cli.js', ...args], { cwd: root });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
const cli = (...args) => cliOn(false, ...args);
// Two cores for the checks that load the machine on purpose (the sandbox, started by the CLI, inherits them).
const PIN = existsSync('/usr/bin/taskset') && availableParallelism() >= 2 ? ['/usr/bin/taskset', '-c', '0,1'] : null;
const dir = mkdtempSync(join(tmpdir(), 'shardlab-py-cli-'));
const file = (name, text) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

// Runs `jobs` (functions returning promises) `lanes` at a time.
async function atATime(lanes, jobs) {
  const results = [];
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return results;
}

// Six checks at a time on two cores (pinned there): the time limit counts each solution's CPU time, not the time it waits for a core.
test("every problem's reference passes through the CLI in both languages, six checks at a time (--json: the same report as JavaScript)", async () => {
  const checks = PROBLEM_IDS.flatMap((id) => [[id, `problems/${id}/solution.py`], [id, `problems/${id}/solution.mjs`]]);
  const results = await atATime(6, checks.map(([id, solution]) => () => cliOn(true, 'check', id, solution, '--json')));
  for (const [i, r] of results.entries()) {
    expect(r.status, `${checks[i][1]}: ${r.stderr}${r.stdout.slice(0, 2000)}`).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(Object.keys(report).sort()).toEqual(['cases', 'isolation', 'passed', 'problem', 'requirements', 'seed', 'timeMs']);
    expect(report.passed).toBe(true);
  }
}, 300000);

test("a learner's idioms pass their problems: a mesh from numpy's reshape of jax.devices() and from mesh_utils, and one of Explicit axes (the global view); a Hessian-vector product by jax.linearize; weights laid out by with_sharding_constraint", async () => {
  const checks = [
    ['device-mesh-named-sharding', 'tests/python/solutions/place_with_numpy_mesh.py'],
    ['device-mesh-named-sharding', 'tests/python/solutions/place_in_the_global_view.py'],
    ['hessian-vector-product', 'tests/python/solutions/hvp_by_linearize.py'],
    ['tensor-parallel-mlp', 'tests/python/solutions/mlp_with_sharding_constraint.py'],
  ];
  const results = await Promise.all(checks.map(([id, solution]) => cli('check', id, solution, '--json')));
  for (const [i, r] of results.entries()) {
    expect(r.status, `${checks[i][1]}: ${r.stderr}${r.stdout.slice(0, 2000)}`).toBe(0);
    expect(JSON.parse(r.stdout).passed).toBe(true);
  }
}, 120000);

test('a wrong Python solution fails with exit 1 and a Python-language message; a syntax error is a verdict (exit 1) with its line', async () => {
  const [wrong, broken] = await Promise.all([
    cli('check', 'data-parallel-step', file('mine.py', 'import jax\n\ndef step(w, b, x, y, lr):\n    print("tracing", w.shape)\n    return {"w": w, "b": b, "loss": (x * 0).sum()}\n')),
    cli('check', 'data-parallel-step', file('broken.py', 'def step(w, b, x, y, lr):\n    return {"w": w +}\n')),
  ]);
  expect(wrong.status).toBe(1);
  expect(wrong.stdout).toMatch(/FAIL shard-map-splits-x: the traced program has no shard_map: use jax\.shard_map so/);
  expect(wrong.stderr).toMatch(/tracing \(/); // the solution's prints go to stderr
  expect(broken.status).toBe(1);
  expect(broken.stdout).toMatch(/FAIL example 1: the solution could not be loaded:\n {2}File "broken\.py", line 2\n.*SyntaxError: invalid syntax/s);
  expect(broken.stdout).toMatch(/FAIL example 2: the same as example 1\n/);
}, 120000);

test("what a solution's program prints in each case (jax.debug.print in its body) goes to stderr, per device in device order, and into --json", async () => {
  const pmean = '        mw, mb, ml = jax.lax.pmean((gw, gb, l), "data")\n';
  const source = readFileSync(join(root, 'problems/data-parallel-step/solution.py'), 'utf8');
  expect(source).toContain(pmean);
  const printing = '        jax.debug.print("device {} loss {:.3f}", jax.lax.axis_index("data"), l)\n';
  const r = await cli('check', 'data-parallel-step', file('printing.py', source.replace(pmean, printing + pmean)), '--json');
  expect(r.status).toBe(0);
  const report = JSON.parse(r.stdout);
  for (const c of report.cases) {
    const lines = c.output.split('\n');
    expect(lines.map((l) => l.replace(/ loss \S+$/, ''))).toEqual(Array.from({ length: 8 }, (_, d) => `device ${d}`));
    expect(r.stderr).toContain(`${c.name} printed:\n${lines.map((l) => `  ${l}`).join('\n')}\n`);
  }
});

test('shardlab run prints what the script prints; an uncaught exception exits 1 with the script\'s traceback', async () => {
  const ok = file(
    'ok.py',
    `import jax
import jax.numpy as jnp
x = jnp.arange(4.0)
print(x * 2)
print(repr(jnp.sum(x)), jnp.ones((2, 2)).dtype)
print(jax.jit(lambda a: {"m": a @ a.T})(jnp.ones((2, 3))))
print(jax.device_count(), jax.devices()[7])
`,
  );
  const bad = file('bad.py', 'import jax.numpy as jnp\n\ndef f(v):\n    return float(v)\n\nprint("before")\nf(jnp.ones(3))\n');
  const [r, e, missing] = await Promise.all([cli('run', ok), cli('run', bad), cli('run', join(dir, 'none.py'))]);
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toBe("[0. 2. 4. 6.]\nArray(6., dtype=float32) float32\n{'m': Array([[3., 3.],\n       [3., 3.]], dtype=float32)}\n8 CpuDevice(id=7)\n");
  expect(e.status).toBe(1);
  expect(e.stdout).toBe('before\n');
  // Only the script's frames, as Python prints them (the binding's own frames are left out).
  expect(e.stderr).toMatch(/^Traceback \(most recent call last\):\n {2}File "bad\.py", line 7, in <module>\n {4}f\(jnp\.ones\(3\)\)\n/);
  expect(e.stderr).toMatch(/\n {2}File "bad\.py", line 4, in f\n {4}return float\(v\)\n/);
  expect(e.stderr).toMatch(/\nTypeError: Only scalar arrays can be converted to Python scalars; got arr\.ndim=1\n$/);
  expect(e.stderr).not.toMatch(/jax\/_src|pyodide/);
  expect(missing.status).toBe(2);
  expect(missing.stderr).toMatch(/cannot read .*none\.py: no such file/);
}, 120000);
