// `npm run bench` survives a failing group (issue 33): each group runs in a
// process of its own, a group that fails is a row of the table with its
// error, the others still run, and the run exits 1 at the end. (npm test
// also runs the whole bench at --smoke: scripts/test.sh.)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('a group that fails (here: the kernels, on a machine without cmake) is reported with its error; the other groups run; exit 1', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shardlab-bench-'));
  // A PATH with Node and nothing else.
  const bin = join(dir, 'bin');
  spawnSync('mkdir', [bin]);
  symlinkSync(process.execPath, join(bin, 'node'));
  const json = join(dir, 'bench.json');
  const r = spawnSync(process.execPath, ['scripts/bench/index.mjs', '--smoke', '--groups', 'kernels,dispatch', '--json', json, '--svg', join(dir, 'bench.svg')], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, PATH: bin },
    timeout: 240000,
  });
  expect(r.status).toBe(1);
  expect(r.stdout).toMatch(/^kernels\tFAILED\t{6}spawnSync cmake ENOENT$/m);
  expect(r.stdout).toMatch(/^dispatch\twasm-jit\tpsum-1-float\t/m);
  expect(r.stdout).toMatch(/1 group\(s\) failed: kernels$/m);
  const report = JSON.parse(readFileSync(json, 'utf8'));
  expect(report.ran).toEqual(['dispatch']);
  expect(report.failed.map((f) => f.group)).toEqual(['kernels']);
  expect(report.rows.length).toBeGreaterThan(0);
}, 300000);
