// A static file server for the repository (or --root) with the headers the
// checker page is meant to be served with (web/app/headers.js):
//   Cross-Origin-Opener-Policy: same-origin       } cross-origin isolation:
//   Cross-Origin-Embedder-Policy: require-corp    } SharedArrayBuffer, hence threads
//   Content-Security-Policy: ...                  no inline script, no event-handler attributes
// Usage: node scripts/serve.mjs [--port 8080] [--root .] [--no-isolation] [--no-csp]
// --no-csp is for pages with inline scripts (the bench page's import map).
import { createServer } from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import { headersFor, ISOLATION_HEADERS, PAGE_HEADERS } from '../web/app/headers.js';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const port = Number(opt('--port', process.env.PORT ?? 8080));
const root = resolve(opt('--root', '.'));
const isolated = !args.includes('--no-isolation');
const withCsp = !args.includes('--no-csp');

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
  '.zip': 'application/zip',
};

// Sent with every response, errors included: a worker script gets its own
// policy from its response (the sandbox worker a stricter one than the
// page), and nosniff keeps a text/plain error page text.
function headers(path) {
  const csp = headersFor(path)['Content-Security-Policy'];
  return {
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': PAGE_HEADERS['X-Frame-Options'],
    ...(isolated ? ISOLATION_HEADERS : {}),
    ...(withCsp ? { 'Content-Security-Policy': csp } : {}),
  };
}

/**
 * The file under `root` that the request target `target` names, or the HTTP
 * status refusing it: 400 for a target that is not a path or not valid
 * percent-encoding, 403 for one that could leave the root. The path is
 * decoded once (so %252F stays the three characters %2F of a file name), and
 * checked segment by segment and again after resolving, against the root
 * followed by a separator (so /x/site-secret is not inside /x/site). The
 * check is on the path, not the real path: a symlink under the root (a
 * checkout's node_modules) is the root owner's choice.
 */
function fileFor(root, target) {
  const pathname = target.split(/[?#]/, 1)[0];
  if (!pathname.startsWith('/')) return { status: 400 };
  let path;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return { status: 400 };
  }
  if (path.includes('\0')) return { status: 400 };
  // A backslash is a separator on Windows; '..' is refused even when it would
  // stay inside the root, since a browser never sends it.
  if (path.split('/').some((s) => s === '..' || s.includes('\\'))) return { status: 403 };
  const file = resolve(root, `.${path}`);
  const inside = root.endsWith(sep) ? root : root + sep;
  if (file !== root && !file.startsWith(inside)) return { status: 403 };
  return { file, path };
}

const server = createServer((req, res) => {
  const found = fileFor(root, req.url);
  if (!found.file) {
    res.writeHead(found.status, { ...headers(req.url), 'Content-Type': 'text/plain' }).end(found.status === 400 ? 'bad request' : 'forbidden');
    return;
  }
  let file = found.file;
  try {
    if (statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!statSync(file).isFile()) throw new Error('not a file');
  } catch {
    res.writeHead(404, { ...headers(req.url), 'Content-Type': 'text/plain' }).end(`not found: ${found.path}`);
    return;
  }
  res.writeHead(200, { ...headers(req.url), 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
  // An unreadable file ends the response instead of crashing the server.
  createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
});

server.listen(port, '127.0.0.1', () => {
  console.log(
    `serving ${root} at http://127.0.0.1:${port}/ (${isolated ? 'cross-origin isolated' : 'NOT isolated'}${withCsp ? ', with a CSP' : ', no CSP'})`,
  );
});
