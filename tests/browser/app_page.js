// What the checker page's tests share: the page built once per test run
// (build/app, by global_setup.js), the reference solutions' sources, and typing into the editor.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const root = fileURLToPath(new URL('../../', import.meta.url));

/** Where the page is built, under the root (SHARDLAB_APP_DIR, so two test runs at once build apart; build/app by default). */
export const APP_DIR = process.env.SHARDLAB_APP_DIR ?? 'build/app';

/** The built page's address on the test server, with `hash` (a route such as `#/problem/<id>?lang=python`). */
export const appUrl = (hash = '') => `/${APP_DIR}/index.html${hash}`;

/** The source of problem `id`'s reference solution. */
export const solution = (id) => readFileSync(`${root}problems/${id}/solution.mjs`, 'utf8');

/** Replaces the editor's text with `code`. */
export async function typeCode(page, code) {
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(code);
}

/** The serious and critical accessibility violations axe finds on the page, one line each (id, help, where). */
export async function seriousViolations(page) {
  const { default: AxeBuilder } = await import('@axe-core/playwright');
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join('; ')})`);
}
