// The API manifest (web/lib/api/manifest.js) is the one home of each public
// function's facts, and every face is held to it both ways (issue 34): the
// JS exports, the declarations of index.d.ts, the README's API table,
// Python's jax (every name it binds resolves) and docs/python.md's table.
import { readdirSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { MANIFEST } from '../../web/lib/api/manifest.js';
import { apiName } from '../../web/checker/names.js';
import { functionDeclarations, NAMESPACES as GENERATED } from '../../scripts/gen_types.mjs';
import { runPython, warmPython } from './python_env.js';

const root = new URL('../../', import.meta.url);
const read = (path) => readFileSync(new URL(path, root), 'utf8');

beforeAll(() => warmPython(), 120000);

const at = (obj, path) => path.split('.').reduce((o, k) => (o == null ? undefined : o[k]), obj);
// The namespaces of the JS API whose functions the manifest lists, besides the top level.
const NAMESPACES = ['np', 'np.linalg', 'lax', 'lax.linalg', 'nn', 'random', 'profiler', 'debug', 'export'];
// A function the API exports (classes, named with a capital, are types: P is the one function so named).
const isFunctionName = (obj, k) => typeof obj[k] === 'function' && (/^[a-z]/.test(k) || k === 'P' || k === 'PRNGKey');

// Every function path the JS API exports: 'jit', 'np.add', 'np.linalg.norm', ...
function exportedPaths() {
  const paths = Object.keys(sl).filter((k) => isFunctionName(sl, k));
  for (const ns of NAMESPACES) for (const k of Object.keys(at(sl, ns))) if (isFunctionName(at(sl, ns), k)) paths.push(`${ns}.${k}`);
  return paths.sort();
}
const manifestPaths = () => [...new Set(MANIFEST.map((m) => m.js))].sort();

test('the manifest lists every function the JS API exports, once each, and each of its paths is one', () => {
  for (const m of MANIFEST) expect(typeof at(sl, m.js), m.js).toBe('function');
  expect(manifestPaths()).toEqual(exportedPaths());
  const keys = MANIFEST.filter((m) => m.module).map((m) => `${m.module}.${m.name}`);
  expect(keys.length, 'a JAX name bound twice').toBe(new Set(keys).size);
});

// Every function path a declaration file declares: exported functions, and the members of the namespaces' object
// types (index.d.ts) or of the interfaces each namespace joins in (functions.d.ts, generated: np's is NpFunctions).
function declaredPaths(name, text) {
  const source = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
  const paths = [];
  const members = (node, prefix) => {
    for (const m of node?.members ?? []) {
      const member = m.name?.getText(source);
      if (!member) continue;
      if (m.type && ts.isTypeLiteralNode(m.type)) members(m.type, `${prefix}${member}.`);
      // Functions only: a constant (FORMAT) or a class (Exported) is no function of the manifest.
      else if (/^[a-z]/.test(member) || member === 'PRNGKey') paths.push(`${prefix}${member}`);
    }
  };
  for (const s of source.statements) {
    if (ts.isFunctionDeclaration(s) && s.name && s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) paths.push(s.name.text);
    if (ts.isInterfaceDeclaration(s)) {
      const ns = Object.keys(GENERATED).find((k) => GENERATED[k] === s.name.text);
      if (ns) members(s, `${ns}.`);
    }
    if (ts.isVariableStatement(s)) {
      for (const d of s.declarationList.declarations) {
        const ns = d.name.getText(source);
        if (!['np', 'lax', 'nn', 'random', 'profiler', 'debug', 'exportNs'].includes(ns)) continue;
        // `NpFunctions & { ... }`: the generated part is counted from functions.d.ts, the literal here.
        const literal = d.type && ts.isIntersectionTypeNode(d.type) ? d.type.types.find(ts.isTypeLiteralNode) : d.type;
        if (literal && ts.isTypeLiteralNode(literal)) members(literal, ns === 'exportNs' ? 'export.' : `${ns}.`);
      }
    }
  }
  return [...new Set(paths)].filter((p) => !/^(Array|Tracer)$/.test(p)); // an overloaded function is declared once per signature
}

test('index.d.ts and the declarations generated from the manifest declare exactly its functions, each once', () => {
  const byHand = declaredPaths('index.d.ts', read('web/lib/index.d.ts'));
  const generated = declaredPaths('functions.d.ts', functionDeclarations());
  expect(generated.filter((p) => byHand.includes(p)), 'declared both by hand and from the manifest').toEqual([]);
  expect([...byHand, ...generated].sort()).toEqual(manifestPaths());
  expect(generated.length).toBeGreaterThan(80);
  // The generated part is what JS exports (a line of arrays only is a function of arrays).
  for (const p of generated) expect(typeof at(sl, p), p).toBe('function');
  // The build wrote the declarations of this manifest (a stale file would type what is gone).
  expect(read('web/lib/functions.d.ts')).toBe(functionDeclarations());
});

// The backticked words of a README or docs table row that starts with `head`.
function rowWords(text, head) {
  const row = text.split('\n').find((l) => l.startsWith(head));
  expect(row, head).toBeDefined();
  return new Set([...row.matchAll(/`([^`]+)`/g)].flatMap((m) => m[1].split(/\s+/)).map((w) => w.replace(/\(.*$/, '')));
}

test("the README's API table names every function of the manifest: each namespace's row exactly, the top level's somewhere", () => {
  const readme = read('README.md');
  const table = readme.slice(readme.indexOf('### The API'), readme.indexOf('Arguments and results are trees'));
  for (const [ns, head] of [['np', '| `np` |'], ['lax', '| `lax` |'], ['nn', '| `nn` |'], ['random', '| `random` |']]) {
    const listed = [...rowWords(table, head)].filter((w) => /^[a-zA-Z]\w*$/.test(w) && w !== ns).sort();
    const own = MANIFEST.filter((m) => m.js.startsWith(`${ns}.`) && m.js.split('.').length === 2).map((m) => m.js.slice(ns.length + 1));
    expect(listed, ns).toEqual([...new Set(own)].sort());
  }
  for (const m of MANIFEST) {
    if (!['np.', 'lax.', 'nn.', 'random.'].some((p) => m.js.startsWith(p))) expect(table, m.js).toMatch(new RegExp(`\`${m.js.replace(/\./g, '\\.')}(\\(|\`)`));
  }
  const errors = rowWords(table, '| errors |');
  for (const k of Object.keys(sl).filter((k) => /Error$/.test(k) && k !== 'RuntimeError')) expect(errors.has(k), k).toBe(true);
});

test("Python's jax binds every JAX name of the manifest (from the table or by hand), and docs/python.md's rows list them", async () => {
  const bound = MANIFEST.filter((m) => m.binding !== 'js');
  const missing = await runPython(`
import importlib
missing = []
for module, name in ${JSON.stringify(bound.map((m) => [m.module, m.name]))}:
    mod = importlib.import_module("jax" if module == "jax" else "jax." + module)
    if not hasattr(mod, name):
        missing.append(module + "." + name)
repr(missing)
`);
  expect(missing).toBe('[]');
  const docs = read('docs/python.md');
  for (const module of ['numpy', 'lax', 'nn', 'random', 'scipy.special', 'numpy.linalg']) {
    const listed = rowWords(docs, `| \`jax.${module}\` |`);
    for (const m of bound.filter((b) => b.module === module)) expect(listed.has(m.name), `jax.${module}.${m.name} in docs/python.md`).toBe(true);
  }
}, 120000);

// Requirement messages name API functions through api('<JS name>') (web/checker/names.js), which a
// Python solution reads as JAX's name from the manifest: every name a problem or the judge uses has one.
test("every API name a requirement's message mentions is in the manifest, with its JAX name for Python", () => {
  const sources = [...readdirSync(new URL('problems/', root), { recursive: true }), ...readdirSync(new URL('web/checker/', root)).map((f) => `../web/checker/${f}`)]
    .filter((f) => f.endsWith('.js'))
    .map((f) => read(`problems/${f}`));
  const names = new Set(sources.flatMap((s) => [...s.matchAll(/\bapi\('([^']+)'\)/g)].map((m) => m[1])));
  expect(names.size).toBeGreaterThan(10);
  for (const name of names) {
    expect(apiName(name, 'javascript')).toBe(name);
    expect(apiName(name, 'python'), name).toMatch(/^(jax|jnp)\.[a-z_.]+$/);
  }
  expect(['sl.shardMap', 'lax.pcast', 'np.minimum', 'lax.foriLoop', 'nn.softmax'].map((n) => apiName(n, 'python'))).toEqual([
    'jax.shard_map',
    'jax.lax.pcast',
    'jnp.minimum',
    'jax.lax.fori_loop',
    'jax.nn.softmax',
  ]);
  expect(() => apiName('np.noSuchFunction', 'python')).toThrow(/np\.noSuchFunction has no JAX name in the API manifest/);
});

// The collectives, pmean and pcast state their arguments once, in the core's registry (each Def's
// kLaxArgs): the JS function, Python's and the manifest's parameters are read from it.
test("the collectives' parameters come from the core's registry: the manifest's notation, the JS options and Python's keywords", async () => {
  await sl.init();
  const params = (name) => MANIFEST.find((m) => m.module === 'lax' && m.name === name).params;
  expect(params('all_gather')).toBe("x:tree, axis_name, *, {axis=0, tiled=False, to='varying'}");
  expect(params('all_to_all')).toBe('x:tree, axis_name, split_axis, concat_axis, *, {tiled=False}');
  expect(params('pcast')).toBe('x:tree, axis_name, *, {to}');
  expect(params('axis_index')).toBe('axis_name');
  // `-> tuple` marks a function whose results Python returns as a tuple; it is no parameter
  const average = MANIFEST.find((m) => m.name === 'average');
  expect([average.tuple, average.params.includes('->'), MANIFEST.find((m) => m.name === 'mean').tuple]).toEqual([true, false, false]);
  expect(MANIFEST.filter((m) => m.binding === 'core').map((m) => m.name).sort()).toEqual(
    ['all_gather', 'all_to_all', 'axis_index', 'pcast', 'pmax', 'pmean', 'pmin', 'ppermute', 'psum', 'psum_scatter'],
  );
  const mesh = sl.makeMesh([8], ['i']);
  const body = (f) => sl.makeJaxpr(sl.shardMap(f, { mesh, inSpecs: sl.P('i'), outSpecs: sl.P('i'), checkVma: false }))(new sl.ShapeDtypeStruct([8, 2]));
  expect(body((b) => sl.lax.allGather(b, 'i', { axis: 1, tiled: true })).toString()).toMatch(/all_gather\[\s+all_gather_dimension=1\s+axis_name=\('i',\)\s+axis_size=8\s+tiled=True\s+\]/);
  expect(() => body((b) => sl.lax.allGather(b, 'i', { tiles: true }))).toThrow("lax.allGather: unknown option 'tiles'; its options are axis, tiled");
  expect(() => body((b) => sl.lax.pcast(b, 'i'))).toThrow('lax.pcast: missing option to');
  expect(() => body((b) => sl.lax.allToAll(b, 'i', 0))).toThrow('lax.allToAll: missing argument concatAxis');
  expect(() => body((b) => sl.lax.psum(b, 3))).toThrow('lax.psum: axisName must be a mesh axis name or a list of them, got 3');
  const python = await runPython(`
import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P
mesh = jax.make_mesh((8,), ("i",), axis_types=(AxisType.Auto,))
f = jax.shard_map(lambda b: jax.lax.all_gather(b, "i", axis=0, tiled=True), mesh=mesh, in_specs=P("i"), out_specs=P(), check_vma=False)
out = [str(jax.make_jaxpr(f)(jnp.ones((8, 2)))).count("all_gather[")]
try:
    jax.lax.all_gather(jnp.ones(2), "i", tile=True)
except TypeError as e:
    out.append(str(e))
repr(out)
`);
  expect(python).toBe(`[1, "jax.lax.all_gather() got an unexpected keyword argument 'tile' (its arguments here: x, axis_name, axis, tiled, to)"]`);
}, 120000);
