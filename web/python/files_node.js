// The `jax` package's files read from disk, for startPython (host.js) in Node.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('./', import.meta.url));

/** {path relative to web/python: text} of every .py file of the package and the host's helper. */
export function pythonFiles() {
  const files = {};
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.py')) files[relative(ROOT, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(join(ROOT, 'jax'));
  files['shardlab_host.py'] = readFileSync(join(ROOT, 'shardlab_host.py'), 'utf8');
  return files;
}
