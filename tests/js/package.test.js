// `npm pack` gives a package that installs into an empty project and works
// there in Node: the wasm and worker files are found from node_modules, and
// the checker's CLI runs from the project.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

// The package's production dependencies, and theirs, packed from node_modules into `dir`: their tarballs' paths.
function dependencyTarballs(dir) {
  const seen = new Set();
  const tarballs = [];
  const pack = (deps) => {
    for (const name of Object.keys(deps ?? {})) {
      if (seen.has(name)) continue;
      seen.add(name);
      const folder = join(root, 'node_modules', name);
      const file = execFileSync('npm', ['pack', folder, '--pack-destination', dir, '--silent'], { cwd: dir, encoding: 'utf8' }).trim().split('\n').pop();
      tarballs.push(join(dir, file));
      pack(JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).dependencies);
    }
  };
  pack(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).dependencies);
  return tarballs;
}

test('npm pack, install into an empty project, run a jit step from node_modules', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shardlab-pack-'));
  execFileSync('npm', ['pack', '--pack-destination', dir, '--silent'], { cwd: root, encoding: 'utf8' });
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  expect(tarball).toMatch(/^shardlab-.*\.tgz$/);
  const listing = execFileSync('tar', ['tzf', join(dir, tarball)], { encoding: 'utf8' });
  for (const f of ['index.js', 'index.d.ts', 'functions.d.ts', 'wasm/shardlab_wasm.js', 'wasm/shardlab_wasm.wasm', 'wasm/shardlab_wasm.worker.js']) {
    expect(listing).toContain(`package/web/lib/${f}`);
  }
  expect(listing).toContain('package/web/python/stdlib_bytecode.zip'); // Python's standard library, compiled at build
  expect(listing).not.toContain('shardlab_wasm_test'); // the test build (fault injection) is not shipped
  for (const hooks of ['web/lib/testing.js', 'web/lib/engine/test_hooks.js']) expect(listing).not.toContain(`package/${hooks}`);
  const app = join(dir, 'app');
  execFileSync('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  // With an empty npm cache of its own, as on a fresh machine, and nothing to fetch: the package's
  // dependencies come packed from this project's own node_modules, each with its own dependencies.
  const packed = dependencyTarballs(dir);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--cache', join(dir, 'empty-cache'), ...packed, join(dir, tarball)], { cwd: app, encoding: 'utf8' });
  writeFileSync(
    join(app, 'main.mjs'),
    `import * as sl from 'shardlab';
await sl.init();
const mesh = sl.makeMesh([8], ['data']);
const f = sl.jit((x) => sl.shardMap((b) => sl.lax.psum(b, 'data'), { mesh, inSpecs: sl.P('data'), outSpecs: sl.P() })(x));
const y = await f(sl.array([1, 2, 3, 4, 5, 6, 7, 8]));
console.log(JSON.stringify(await y.tolist()));
process.exit(0);
`,
  );
  const out = execFileSync(process.execPath, ['main.mjs'], { cwd: app, encoding: 'utf8', timeout: 60000 });
  expect(out.trim()).toBe('[36]');
  // The checker's CLI from the installed package.
  expect(execFileSync('npx', ['--no-install', 'shardlab', 'list'], { cwd: app, encoding: 'utf8' })).toMatch(/^ring-allreduce-ppermute\t/m);
  writeFileSync(join(app, 'ring.mjs'), readFileSync(join(root, 'problems/ring-allreduce-ppermute/solution.mjs'), 'utf8'));
  const report = JSON.parse(execFileSync('npx', ['--no-install', 'shardlab', 'check', 'ring-allreduce-ppermute', 'ring.mjs', '--json'], { cwd: app, encoding: 'utf8', timeout: 60000 }));
  expect(report.passed).toBe(true);
  // Python from the installed package: its jax package and Pyodide (a dependency) come along.
  writeFileSync(join(app, 'ring.py'), readFileSync(join(root, 'problems/ring-allreduce-ppermute/solution.py'), 'utf8'));
  const py = JSON.parse(execFileSync('npx', ['--no-install', 'shardlab', 'check', 'ring-allreduce-ppermute', 'ring.py', '--json'], { cwd: app, encoding: 'utf8', timeout: 90000 }));
  expect(py.passed).toBe(true);
}, 240000);
