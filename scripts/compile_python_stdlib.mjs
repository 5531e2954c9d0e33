// Build step: Python's standard library as bytecode. Pyodide's npm package
// ships the library as source, which Python compiles on every start, in wasm:
// in Chromium that was 4 of the 6.7 s Pyodide took to start. Compiled once
// here by Pyodide's own Python (so the bytecode matches its interpreter), it
// goes to web/python/stdlib_bytecode.zip, which the page and Node hand to
// loadPyodide as its standard library (as Pyodide's own "pyc" distribution).
// Rebuilt when Pyodide's version or this script changes.
// Usage: node scripts/compile_python_stdlib.mjs

import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadPyodide } from 'pyodide';

const root = fileURLToPath(new URL('../', import.meta.url));
const pyodideDir = dirname(createRequire(import.meta.url).resolve('pyodide/package.json'));
const out = join(root, 'web/python/stdlib_bytecode.zip');
const stamp = join(root, 'build/stdlib_bytecode.stamp');

// What the output depends on: Pyodide's version and this script.
const { version } = JSON.parse(readFileSync(join(pyodideDir, 'package.json'), 'utf8'));
const key = `pyodide ${version} ${createHash('sha256').update(readFileSync(fileURLToPath(import.meta.url))).digest('hex')}\n`;
if (existsSync(out) && existsSync(stamp) && readFileSync(stamp, 'utf8') === key) process.exit(0);

const py = await loadPyodide();
py.FS.writeFile('/tmp/source.zip', readFileSync(join(pyodideDir, 'python_stdlib.zip')));
// Every module becomes module.pyc in place of module.py (zipimport loads
// those with no source beside them); the other files are copied. Fixed
// dates make the archive the same on every build.
py.runPython(`
import importlib.util, marshal, zipfile
with zipfile.ZipFile('/tmp/source.zip') as src, zipfile.ZipFile('/tmp/out.zip', 'w', zipfile.ZIP_DEFLATED) as dst:
    for info in src.infolist():
        data = src.read(info)
        name = info.filename
        if name.endswith('.py'):
            code = compile(data, name, 'exec', dont_inherit=True)
            # A timestamp-based header with no source to check it against.
            data = importlib.util.MAGIC_NUMBER + bytes(12) + marshal.dumps(code)
            name += 'c'
        entry = zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0))
        entry.compress_type = zipfile.ZIP_DEFLATED
        entry.external_attr = info.external_attr
        dst.writestr(entry, data)
`);
writeFileSync(out, py.FS.readFile('/tmp/out.zip'));
writeFileSync(stamp, key);
console.log(`build: Python's standard library as bytecode (web/python/stdlib_bytecode.zip, Pyodide ${version})`);
process.exit(0);
