// The CLI's contract (../shared/DESIGN.md): list, check with the reference or
// a solution file, --cases, --json (stdout holds only the report), and the
// exit status 0 / 1 / 2.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = (...args) => spawnSync(process.execPath, ['web/checker/cli.js', ...args], { cwd: root, encoding: 'utf8', timeout: 120000 });
const dir = mkdtempSync(join(tmpdir(), 'shardlab-cli-'));
const file = (name, text) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

test('list names every problem', () => {
  const r = cli('list');
  expect(r.status).toBe(0);
  expect(r.stdout).toMatch(/^data-parallel-step\tMedium\tData-Parallel Step with psum$/m);
  expect(r.stdout).toMatch(/^tensor-parallel-mlp\t/m);
});

test('check with the reference solution passes (exit 0); --json prints only the report', () => {
  const r = cli('check', 'tensor-parallel-mlp', '--json');
  expect(r.status).toBe(0);
  const report = JSON.parse(r.stdout);
  expect(Object.keys(report).sort()).toEqual(['cases', 'isolation', 'passed', 'problem', 'requirements', 'seed', 'timeMs']);
  expect(report.isolation).toBe('bubblewrap'); // this machine can isolate the sandbox (setup installs bubblewrap)
  expect(report.passed).toBe(true);
  expect(Object.keys(report.cases[0]).sort()).toEqual(['diffs', 'maxAbsError', 'message', 'name', 'output', 'passed']);
  expect(report.cases.every((c) => c.output === null)).toBe(true); // the reference prints nothing
  expect(Object.keys(report.requirements[0]).sort()).toEqual(['id', 'message', 'passed']);
});

test('a wrong solution file fails with exit 1; its console output goes to stderr under --json', () => {
  const wrong = file(
    'wrong.mjs',
    `import * as sl from 'shardlab';
export default function (x, w1, b1, w2, b2) {
  console.log('hello from the solution');
  const h = sl.nn.relu(x.matmul(w1).add(b1));
  return { out: h.matmul(w2).add(b2), hidden: h };
}
`,
  );
  const r = cli('check', 'tensor-parallel-mlp', wrong, '--json');
  expect(r.status).toBe(1);
  const report = JSON.parse(r.stdout);
  expect(report.passed).toBe(false);
  expect(report.requirements.find((q) => q.id === 'has-psum').passed).toBe(false);
  expect(r.stderr).toContain('hello from the solution');
});

test('--cases replaces the examples and generated cases', () => {
  const cases = file('cases.json', JSON.stringify([{ input: { x: [[1, 1]], w1: [[1, 0, 0, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0, 0, 0]], b1: [0, 0, 0, 0, 0, 0, 0, 0], w2: [[1], [1], [0], [0], [0], [0], [0], [0]], b2: [1] }, expected: { out: [[3]], hidden: [[1, 1, 0, 0, 0, 0, 0, 0]] } }]));
  const r = cli('check', 'tensor-parallel-mlp', '--cases', cases, '--json');
  expect(r.status).toBe(0);
  expect(JSON.parse(r.stdout).cases.map((c) => c.name)).toEqual(['case 1']);
});

test('usage errors exit 2 with a message and no JSON', () => {
  for (const args of [
    ['check', 'no-such-problem', '--json'],
    ['check', 'data-parallel-step', join(dir, 'missing.mjs'), '--json'],
    ['check', 'data-parallel-step', '--cases', file('bad.json', '{not json'), '--json'],
    ['check', 'data-parallel-step', '--cases', file('shape.json', '[{"input": {"w": [[0]]}, "expected": {}}]'), '--json'],
    ['frobnicate'],
  ]) {
    const r = cli(...args);
    expect(r.status, args.join(' ')).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^shardlab: /);
  }
});

test("a solution's own errors are verdicts (exit 1, a report naming the error), never usage errors", () => {
  for (const [name, text, message] of [
    ['nodefault.mjs', 'export const x = 1;\n', /^the solution could not be loaded: nodefault\.mjs has no default export/],
    ['syntax.mjs', 'export default function (w, b, x, y, lr) {\n  return {;\n}\n', /^the solution could not be loaded: cannot load the solution syntax\.mjs: SyntaxError: /],
    ['helper.mjs', "import { f } from './other.mjs';\nexport default f;\n", /^the solution could not be loaded: cannot load the solution helper\.mjs: Error: a solution is one file: it cannot import '\.\/other\.mjs'/],
  ]) {
    const r = cli('check', 'data-parallel-step', file(name, text), '--json');
    expect(r.status, name).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.passed).toBe(false);
    expect([...new Set(report.cases.map((c) => c.message))], name).toEqual([expect.stringMatching(message)]);
    expect(report.requirements.every((q) => !q.passed && message.test(q.message)), name).toBe(true);
  }
});

test('a cases file outside the problem is a usage error naming the case and field; nothing runs', () => {
  const x7 = Array.from({ length: 7 }, (_, i) => [i]);
  const step = { w: [[0]], b: [0], x: [...x7, [7]], y: [...x7, [7]], lr: 0.1 };
  const mlp = { x: [[1]], w1: [Array(12).fill(0)], b1: Array(12).fill(0), w2: Array.from({ length: 12 }, () => [0]), b2: [0] };
  for (const [id, text, message] of [
    ['data-parallel-step', JSON.stringify([{ input: step }, { input: step }, { input: { ...step, x: x7, y: x7 } }]), 'case 3: input x has 7 rows (N); N must be one of 8, 16, 24, 32'],
    ['data-parallel-step', '[]', 'no cases to check: the array is empty'],
    ['data-parallel-step', '[{"input": null}]', 'case 1: input must be an object of the arguments {w, b, x, y, lr}, got null'],
    ['data-parallel-step', JSON.stringify([{ input: { ...step, lr: 'NaN' } }]), 'case 1: input lr must be a number (a float32 scalar), got a string ("NaN")'],
    ['data-parallel-step', JSON.stringify([{ input: step, expected: { w: [[0]], b: [0], loss: [0] } }]), 'case 1: expected loss must be a number (a float32 scalar), got an array'],
    ['tensor-parallel-mlp', JSON.stringify([{ input: mlp }]), 'case 1: input w1 has 12 columns (H); H must be one of 8, 16, 24, 32'],
  ]) {
    const cases = file('bad-cases.json', text);
    const r = cli('check', id, '--cases', cases, '--json');
    expect(r.status, message).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`shardlab: ${cases}: ${message}\n`);
  }
});

test('a valid cases file without expected outputs runs: the reference computes them', () => {
  const x = Array.from({ length: 8 }, (_, i) => [i, 1]);
  const input = { w: [[0.5], [-0.5]], b: [0.1], x, y: x.map(([a]) => [2 * a]), lr: 0.05 };
  const cases = file('no-expected.json', JSON.stringify([{ input }, { input: { ...input, lr: 0.3 } }]));
  const r = cli('check', 'data-parallel-step', '--cases', cases, '--json');
  expect(r.status, r.stderr).toBe(0);
  const report = JSON.parse(r.stdout);
  expect(report.cases.map((c) => [c.name, c.passed])).toEqual([['case 1', true], ['case 2', true]]);
  expect(report.cases[0].maxAbsError).toBeLessThan(1e-4);
});

test('an endless loop is stopped by the time limit and reported (exit 1); nothing hangs', () => {
  const loop = file(
    'loop.mjs',
    `export default function (w, b, x, y, lr) {
  for (;;) {}
}
`,
  );
  const t0 = Date.now();
  const r = cli('check', 'data-parallel-step', loop, '--json', '--time-limit', '2');
  expect(r.status).toBe(1);
  expect(Date.now() - t0).toBeLessThan(30000);
  const report = JSON.parse(r.stdout);
  expect(report.passed).toBe(false);
  expect(report.requirements[0].message).toMatch(/ran longer than 2 s \(the time limit\) and was stopped/);
  expect(report.cases.every((c) => !c.passed)).toBe(true);
});

test('control characters in anything a solution says are escaped in the text report and on stderr', () => {
  const forged = '\x1b[1A\r  PASS shard-map-splits-x\x1b[0m';
  const r = cli(
    'check',
    'data-parallel-step',
    file('ansi.mjs', `console.error(${JSON.stringify(`${forged}\u202e`)});\nexport default function () {\n  throw new Error(${JSON.stringify(forged)});\n}\n`),
  );
  expect(r.status).toBe(1);
  expect(r.stdout + r.stderr).not.toMatch(/[\x1b\r\u202e]/);
  expect(r.stdout).toContain('FAIL example 1: the solution failed: Error: \\x1b[1A\\x0d  PASS shard-map-splits-x\\x1b[0m');
  expect(r.stderr).toContain('\\x1b[1A\\x0d  PASS shard-map-splits-x\\x1b[0m\\u202e');
});

test('--json names non-finite numbers ("nan", "inf", "-inf") instead of writing null', () => {
  const r = cli('check', 'data-parallel-step', file('nan.mjs', "import * as sl from 'shardlab';\nexport default (w, b, x, y, lr) => ({ w: w.mul(NaN), b: b.add(Infinity), loss: lr.mul(-Infinity) });\n"), '--json');
  expect(r.status).toBe(1);
  const c = JSON.parse(r.stdout).cases[0];
  expect(c.maxAbsError).toBe('nan');
  expect(c.diffs.map((d) => [d.output, d.actual])).toEqual([['w', 'nan'], ['b', 'inf'], ['loss', '-inf']]);
  const text = cli('check', 'data-parallel-step', join(dir, 'nan.mjs'));
  expect(text.stdout).toMatch(/FAIL example 1 max abs error nan: output 'w' differs/);
  expect(text.stdout).toMatch(/loss\[\] expected 121, got -Infinity/);
});

test('a byte order mark (what Notepad saves) is read in Python solutions, coding lines too, and in --cases files', () => {
  const reference = readFileSync(join(root, 'problems/data-parallel-step/solution.py'));
  const bom = file('bom.py', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), reference]));
  const latin1 = file('latin1.py', Buffer.concat([Buffer.from('# -*- coding: latin-1 -*-\n# caf\xe9\n', 'latin1'), reference]));
  const x = Array.from({ length: 8 }, (_, i) => [i, 1]);
  const cases = file('bom.json', `\uFEFF${JSON.stringify([{ input: { w: [[0.5], [-0.5]], b: [0.1], x, y: x.map(([a]) => [2 * a]), lr: 0.05 } }])}`);
  for (const solution of [bom, latin1]) {
    const r = cli('check', 'data-parallel-step', solution, '--cases', cases, '--json');
    expect(r.status, r.stderr + r.stdout).toBe(0);
  }
});

test("Python's sys.exit and refused system calls at import are verdicts naming the learner's line", () => {
  for (const [name, text, message] of [
    ['exits.py', 'import sys\nsys.exit(0)\n', /SystemExit: 0/],
    ['system.py', 'import os\nos.system("id")\n', /File "system\.py", line 2/],
    ['imports.py', 'import helper\n', /ModuleNotFoundError: No module named 'helper'/],
  ]) {
    const r = cli('check', 'data-parallel-step', file(name, text), '--json');
    expect(r.status, `${name}: ${r.stderr}`).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.cases[0].message, name).toMatch(/^the solution could not be loaded:/);
    expect(report.cases[0].message, name).toMatch(message);
  }
});

test("constraints hold the value the argument will have: float32's 0.3 written out (0.30000001192092896) is a valid lr", () => {
  const x = Array.from({ length: 8 }, (_, i) => [i, 1]);
  const input = { w: [[0.5], [-0.5]], b: [0.1], x, y: x.map(([a]) => [2 * a]), lr: 0.30000001192092896 };
  const r = cli('check', 'data-parallel-step', '--cases', file('boundary.json', JSON.stringify([{ input }])), '--json');
  expect(r.status, r.stderr).toBe(0);
});

test('a placement-only problem is exact: the reference computes from the float32 values the solution receives', () => {
  const r = cli('check', 'device-mesh-named-sharding', '--json');
  expect(r.status, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout).cases.every((c) => c.maxAbsError === 0)).toBe(true);
});
