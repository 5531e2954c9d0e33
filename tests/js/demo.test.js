// scripts/demo.mjs (npm start -- --devices): every parallel function of the
// core's registry run on the 8 devices, with what each device holds after;
// the values here are worked out from x = arange(64) in blocks of 8.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('the demo runs every collective of the registry and prints each device\'s result', async () => {
  const { stdout, code, stderr } = await new Promise((resolve) => {
    execFile(process.execPath, [`${root}scripts/demo.mjs`], { cwd: root, timeout: 60000 }, (error, out, err) => resolve({ stdout: out, stderr: err, code: error ? error.code : 0 }));
  });
  expect(code, stderr).toBe(0);
  const after = (title) => stdout.slice(stdout.indexOf(`\n${title}`));
  // psum: column sums of the 8 blocks, 8 * 28 + 8 * k; psum_scatter keeps chunk i; a ring ppermute moves block 7 to device 0.
  expect(after("psum(x, 'data')")).toMatch(/^\npsum\(x, 'data'\)  \(every device ends with the sum of the blocks\)\n.*\n  device 0: \[224, 232, 240, 248, 256, 264, 272, 280\]/);
  expect(after("psum_scatter(x, 'data', tiled=True)")).toMatch(/device 0: \[224\]\n  device 1: \[232\]/);
  expect(after('ppermute(x')).toMatch(/device 0: \[56, 57, 58, 59, 60, 61, 62, 63\]\n  device 1: \[0, 1, 2, 3, 4, 5, 6, 7\]/);
  expect(after('all_to_all(x')).toMatch(/device 1: \[1, 9, 17, 25, 33, 41, 49, 57\]/);
  expect(after("pmean(x, 'data')")).toMatch(/\(its psum: every device ends with the sum of the blocks\)\n.*\n  device 0: \[28, 29, 30, 31, 32, 33, 34, 35\]/);
  expect(after("axis_index('data')")).toMatch(/device 7: \[7\]/);
}, 90000);
