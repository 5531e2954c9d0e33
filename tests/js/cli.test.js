// The CLI's contract (../shared/DESIGN.md): list, check with the reference or
// a solution file, --cases, --json (stdout holds only the report), and the
// exit status 0 / 1 / 2.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
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
  expect(Object.keys(report).sort()).toEqual(['cases', 'passed', 'problem', 'requirements', 'seed', 'timeMs']);
  expect(report.passed).toBe(true);
  expect(Object.keys(report.cases[0]).sort()).toEqual(['diffs', 'maxAbsError', 'message', 'name', 'passed']);
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
    ['check', 'data-parallel-step', file('nodefault.mjs', 'export const x = 1;\n'), '--json'],
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
