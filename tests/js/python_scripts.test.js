// The JAX Python scripts of tests/python, each run with `shardlab run` as a
// learner would run it: its output must equal its .expected file, whose
// values the script's comments work out by hand (or the reference it names
// recorded them: numpy_host.py, numpy 1.24.2).
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = `${root}tests/python/`;
const scripts = readdirSync(dir).filter((f) => f.endsWith('.py'));

test.each(scripts)('%s prints its expected output', async (script) => {
  const { stdout, stderr, code } = await new Promise((resolve) => {
    execFile(process.execPath, [`${root}web/checker/cli.js`, 'run', `${dir}${script}`], { cwd: root, timeout: 120000 }, (error, out, err) =>
      resolve({ stdout: out, stderr: err, code: error ? error.code : 0 }),
    );
  });
  expect(code, stderr).toBe(0);
  expect(stdout).toBe(readFileSync(`${dir}${script.replace(/\.py$/, '.expected')}`, 'utf8'));
}, 120000);
