// The hand-written declarations (web/lib/index.d.ts) accept the documented
// API and reject misuse: tests/types/usage.ts must type-check with tsc.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

test('tsc --noEmit accepts tests/types/usage.ts against index.d.ts', () => {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
  let output = '';
  try {
    execFileSync(process.execPath, [tsc, '-p', 'tests/types'], { cwd: root, encoding: 'utf8' });
  } catch (e) {
    output = `${e.stdout}${e.stderr}`;
  }
  expect(output).toBe('');
}, 60000);
