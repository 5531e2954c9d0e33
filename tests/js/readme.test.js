// The README's quick start runs as written (with the package import pointed
// at this checkout) and prints the statement's first example, and as its own
// Node process it exits by itself when done; the checker page section lists
// the page's headers as they are sent.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test, vi } from 'vitest';

// The quick start, written to a file that imports this checkout.
function quickStartFile() {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const start = readme.indexOf("```js\nimport * as sl from 'shardlab';");
  expect(start).toBeGreaterThanOrEqual(0);
  const code = readme.slice(start + 6, readme.indexOf('```', start + 6));
  const lib = pathToFileURL(new URL('../../web/lib/index.js', import.meta.url).pathname).href;
  const file = join(mkdtempSync(join(tmpdir(), 'shardlab-readme-')), 'quickstart.mjs');
  writeFileSync(file, code.replace("from 'shardlab'", `from '${lib}'`));
  return file;
}

test('the quick start solves the first data-parallel example', async () => {
  const file = quickStartFile();
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  await import(pathToFileURL(file).href);
  const [[w, loss], [jaxpr]] = log.mock.calls;
  log.mockRestore();
  expect(w[0][0]).toBeCloseTo(1.11, 5);
  expect(loss).toBe(121);
  expect(jaxpr).toContain('shard_map[');
  expect(jaxpr).toContain("psum[axes=('data',)]");
});

test('the quick start, run as its own process, exits by itself (code 0) once its work is done', () => {
  const r = spawnSync(process.execPath, [quickStartFile()], { encoding: 'utf8', timeout: 30000 });
  expect(r.error).toBeUndefined(); // no time-out: it did not hang
  expect(r.status).toBe(0);
  expect(r.stdout).toContain('[ [ 1.11');
});

test("the checker page's section lists the headers web/app/headers.js sends, with their values, the sandbox worker's too", async () => {
  const { PAGE_HEADERS, SANDBOX_WORKER_POLICY } = await import('../../web/app/headers.js');
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## The checker page'), readme.indexOf('## The checker CLI'));
  for (const [name, value] of Object.entries(PAGE_HEADERS)) expect(section).toContain(`| \`${name}\` | \`${value}\` |`);
  expect(section).toContain(`| \`Content-Security-Policy\` | \`${SANDBOX_WORKER_POLICY}\` |`);
});

test('the README links docs/architecture.md, and every file and folder that page names exists', () => {
  const root = new URL('../../', import.meta.url);
  const readme = readFileSync(new URL('README.md', root), 'utf8');
  expect(readme).toContain('](docs/architecture.md)');
  const page = readFileSync(new URL('docs/architecture.md', root), 'utf8');
  const paths = [...page.matchAll(/`([\w./{},-]+)`/g)]
    .map((m) => m[1])
    .filter((p) => p.includes('/') && !p.startsWith('.'))
    .flatMap((p) => {
      const brace = p.match(/^(.*)\{([^}]*)\}(.*)$/);
      return brace ? brace[2].split(',').map((alt) => `${brace[1]}${alt}${brace[3]}`) : [p];
    });
  expect(paths.length).toBeGreaterThan(30);
  expect(paths.filter((p) => !existsSync(new URL(p, root)))).toEqual([]);
});

test("the README's problem table lists every problem with its Python function", async () => {
  const { PROBLEMS } = await import('../../web/checker/problems.js');
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  for (const p of PROBLEMS) expect(readme).toMatch(new RegExp(`^\\| \`${p.id}\` \\| ${p.topic}.*\\| \`${p.functionName}\` \\|$`, 'm'));
});
