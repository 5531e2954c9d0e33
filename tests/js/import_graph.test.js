// The layers import downwards only (issue 34): no circle of imports among
// the JS files of web/, none among the folders of cpp/ (by their #includes),
// and Python's jax in JAX's own shape: jax/_src holds the code and never
// imports the public package, whose modules only re-export it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

// Every file below `dir` whose name matches `pattern` (built outputs and dependencies left out).
function filesUnder(dir, pattern) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) {
        if (!['wasm', 'node_modules'].includes(e)) walk(p);
      } else if (pattern.test(e)) out.push(p);
    }
  };
  walk(join(root, dir));
  return out;
}

// The circles of a graph (node -> [nodes]): its strongly connected components of more than one node (Tarjan).
function circles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

test('no circle of imports among the JS files of web/', () => {
  const files = filesUnder('web', /\.m?js$/);
  const graph = new Map();
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"](\.[^'"]+)['"]|^\s*import\s+['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/gm)].map((m) => m[1] ?? m[2] ?? m[3]);
    graph.set(relative(root, f), specifiers.map((s) => relative(root, resolve(dirname(f), s))).filter((p) => graph.has(p) || files.includes(join(root, p))));
  }
  expect(graph.size).toBeGreaterThan(100);
  expect(circles(graph)).toEqual([]);
});

test('no circle among the folders of cpp/: each includes only the layers below it', () => {
  const graph = new Map();
  for (const f of filesUnder('cpp', /\.(h|cc)$/)) {
    const folder = relative(join(root, 'cpp'), f).split('/')[0];
    if (!graph.has(folder)) graph.set(folder, new Set());
    for (const [, inc] of readFileSync(f, 'utf8').matchAll(/#include "([^"/]+)\//g)) if (inc !== folder) graph.get(folder).add(inc);
  }
  expect([...graph.keys()].sort()).toEqual(['bindings', 'exec', 'ir', 'js', 'kernels', 'platform', 'runtime']);
  expect(circles(new Map([...graph].map(([k, v]) => [k, [...v]])))).toEqual([]);
  // The core (ir, exec, runtime, kernels, platform) never includes the JS adapters or the bindings.
  for (const core of ['ir', 'exec', 'runtime', 'kernels', 'platform']) expect([...graph.get(core)].filter((t) => t === 'js' || t === 'bindings'), core).toEqual([]);
});

test("Python's jax: _src never imports the public package, whose modules only re-export (no function or class of their own)", () => {
  const pkg = join(root, 'web/python/jax');
  for (const f of filesUnder('web/python/jax/_src', /\.py$/)) {
    const text = readFileSync(f, 'utf8');
    expect(text.match(/^\s*(from\s+\.\.|import\s+jax\b|from\s+jax\b)/m)?.[0] ?? null, relative(pkg, f)).toBeNull();
  }
  for (const f of filesUnder('web/python/jax', /\.py$/).filter((p) => !p.includes('/_src/'))) {
    const text = readFileSync(f, 'utf8');
    expect(text.match(/^(def|class) \w+/m)?.[0] ?? null, relative(pkg, f)).toBeNull();
  }
});

test('only web/lib/engine names the wasm module: the API, the checker and the page reach the core through the engine', () => {
  const outside = filesUnder('web', /\.m?js$/).filter((f) => !relative(root, f).startsWith('web/lib/engine/'));
  expect(outside.length).toBeGreaterThan(100);
  const naming = outside.filter((f) => /\bModule\.|(?<!WebAssembly)\.Module\b|\{\s*Module\s*\}/.test(readFileSync(f, 'utf8')));
  expect(naming.map((f) => relative(root, f))).toEqual([]);
  // The engine does name it: the test sees what it looks for.
  expect(readFileSync(join(root, 'web/lib/engine/device_runtime.js'), 'utf8')).toMatch(/\.Module\b/);
});
