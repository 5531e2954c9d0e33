// A static file server for the repository (or --root) with the headers the
// checker page is meant to be served with (web/app/headers.js):
//   Cross-Origin-Opener-Policy: same-origin       } cross-origin isolation:
//   Cross-Origin-Embedder-Policy: require-corp    } SharedArrayBuffer, hence threads
//   Content-Security-Policy: ...                  no inline script, no event-handler attributes
// Usage: node scripts/serve.mjs [--port 8080] [--root .] [--no-isolation] [--no-csp]
// --no-csp is for pages with inline scripts (the bench page's import map).
import { createServer } from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import { extname, join, normalize, resolve } from 'node:path';
import { CONTENT_SECURITY_POLICY, ISOLATION_HEADERS } from '../web/app/headers.js';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const port = Number(opt('--port', process.env.PORT ?? 8080));
const root = resolve(opt('--root', '.'));
const isolated = !args.includes('--no-isolation');
const csp = !args.includes('--no-csp');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.md': 'text/markdown; charset=utf-8',
};

// Sent with every response, errors included: a worker script gets its own
// policy from its response, and nosniff keeps a text/plain error page text.
const common = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  ...(isolated ? ISOLATION_HEADERS : {}),
  ...(csp ? { 'Content-Security-Policy': CONTENT_SECURITY_POLICY } : {}),
};

const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  let file = normalize(join(root, path));
  if (!file.startsWith(root)) {
    res.writeHead(403, common).end();
    return;
  }
  try {
    if (statSync(file).isDirectory()) file = join(file, 'index.html');
    statSync(file);
  } catch {
    res.writeHead(404, { ...common, 'Content-Type': 'text/plain' }).end(`not found: ${path}`);
    return;
  }
  res.writeHead(200, { ...common, 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(res);
});

server.listen(port, '127.0.0.1', () => {
  console.log(
    `serving ${root} at http://127.0.0.1:${port}/ (${isolated ? 'cross-origin isolated' : 'NOT isolated'}${csp ? ', with a CSP' : ', no CSP'})`,
  );
});
