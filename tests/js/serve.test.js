// scripts/serve.mjs serves only what lies under its root: every way of
// writing a path that leaves it (.., encoded separators, doubled encodings,
// a sibling directory whose name starts with the root's) is refused, bad
// percent-encoding is a 400 and not a crash, and ordinary files are still
// served with the page's headers. Requests are written raw (node:http), since
// fetch and URL would normalise the `..` away before it reaches the server.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'shardlab-serve-'));
const root = join(dir, 'site');
const SECRET = 'the secret next door';
let server;
let port;

beforeAll(async () => {
  mkdirSync(join(root, 'sub'), { recursive: true });
  mkdirSync(join(dir, 'site-secret'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><p>home</p>');
  writeFileSync(join(root, 'ok.txt'), 'ok');
  writeFileSync(join(root, 'sub', 'inner.txt'), 'inner');
  writeFileSync(join(dir, 'site-secret', 'secret.txt'), SECRET);
  writeFileSync(join(dir, 'secret.txt'), SECRET);
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  port = probe.address().port;
  await new Promise((r) => probe.close(r));
  server = spawn(process.execPath, [`${repo}scripts/serve.mjs`, '--root', root, '--port', String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  await once(server.stdout, 'data'); // it prints its address once listening
});

afterAll(() => {
  server?.kill();
});

// One GET with the request target exactly as given.
function get(path) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('a file under the root is served, with the isolation headers and the CSP', async () => {
  const r = await get('/ok.txt');
  expect(r.status).toBe(200);
  expect(r.body).toBe('ok');
  expect(r.headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(r.headers['cross-origin-embedder-policy']).toBe('require-corp');
  expect(r.headers['content-security-policy']).toMatch(/script-src 'self'/);
  expect((await get('/sub/inner.txt')).body).toBe('inner');
  expect((await get('/')).body).toContain('home');
  expect((await get('/sub%2Finner.txt')).body).toBe('inner');
  expect((await get('/missing.txt')).status).toBe(404);
});

const ESCAPES = [
  '/../site-secret/secret.txt',
  '/../secret.txt',
  '/..%2Fsite-secret%2Fsecret.txt',
  '/..%2fsite-secret/secret.txt',
  '/..%2Fsecret.txt',
  '/%2e%2e/site-secret/secret.txt',
  '/%2E%2E%2Fsite-secret%2Fsecret.txt',
  '/sub/../../site-secret/secret.txt',
  '/sub/..%2F..%2Fsite-secret%2Fsecret.txt',
  '/..%5Csite-secret%5Csecret.txt',
  '/..\\site-secret\\secret.txt',
  '/..%252Fsite-secret%252Fsecret.txt',
  '/%252e%252e%252fsite-secret%252fsecret.txt',
  `/..%2F..%2F${dir.split('/').slice(1).join('%2F')}%2Fsite-secret%2Fsecret.txt`,
  'http://127.0.0.1/../site-secret/secret.txt',
];

for (const path of ESCAPES) {
  test(`${path} is refused`, async () => {
    const r = await get(path);
    expect([400, 403, 404]).toContain(r.status);
    expect(r.body).not.toContain(SECRET);
  });
}

test('malformed percent-encoding is a 400 and the server keeps serving', async () => {
  for (const path of ['/%', '/%zz', '/ok%E0%A4%A.txt', '/%C0%AF', '/a%00b']) {
    expect((await get(path)).status, path).toBe(400);
  }
  expect((await get('/ok.txt')).body).toBe('ok');
  expect(server.exitCode).toBeNull();
});
