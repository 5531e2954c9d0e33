// What the checker page's tests share: the page built once per test run
// (build/app), the reference solutions' sources, and typing into the editor.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

/** The repository root. */
export const root = fileURLToPath(new URL('../../', import.meta.url));

let built = null;
/** Builds the page into build/app, once for all the specs of this worker. */
export function buildApp() {
  built ??= build({ configFile: `${root}web/app/vite.config.js`, logLevel: 'error' });
  return built;
}

/** The source of problem `id`'s reference solution. */
export const solution = (id) => readFileSync(`${root}problems/${id}/solution.mjs`, 'utf8');

/** Replaces the editor's text with `code`. */
export async function typeCode(page, code) {
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(code);
}
