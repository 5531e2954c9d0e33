// Trees of values as JAX's pytrees: JS arrays and plain objects are nodes,
// everything else is a leaf. A nested array of numbers is one leaf (array
// data), not a tree of numbers; null and undefined are empty subtrees.

import { ValueError } from '../../errors.js';

/** Row-major flat elements as nested JS arrays of `shape` (the element itself for shape []). */
export function nestFlat(flat, shape) {
  const build = (dim, offset) => {
    if (dim === shape.length) return flat[offset];
    const stride = shape.slice(dim + 1).reduce((a, b) => a * b, 1);
    return Array.from({ length: shape[dim] }, (_, i) => build(dim + 1, offset + i * stride));
  };
  return build(0, 0);
}

/** Whether `x` is a (possibly nested) JS array of numbers or booleans: array data, a leaf. */
export function isNumericData(x) {
  if (!Array.isArray(x) || x.length === 0) return false;
  return x.every((e) => typeof e === 'number' || typeof e === 'boolean' || isNumericData(e));
}

function isPlainObject(x) {
  if (x === null || typeof x !== 'object') return false;
  const proto = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}

/**
 * Flattens `tree` into its leaves (in order) and a description of its
 * structure: arrays and plain objects are nodes, and so is an object whose
 * class has treeFlatten() and a static treeUnflatten(aux, children).
 */
export function flatten(tree, isLeaf = () => false) {
  const leaves = [];
  const walk = (t) => {
    if (t === null || t === undefined) return { kind: 'none', value: t };
    // A class registered as a node: treeFlatten() gives its children and what else rebuilds it.
    if (!isLeaf(t) && typeof t === 'object' && typeof t.treeFlatten === 'function') {
      const [children, aux] = t.treeFlatten();
      return { kind: 'node', cls: t.constructor, aux, children: children.map(walk) };
    }
    if (!isLeaf(t) && Array.isArray(t) && !isNumericData(t)) return { kind: 'array', children: t.map(walk) };
    if (!isLeaf(t) && isPlainObject(t)) {
      const keys = Object.keys(t);
      return { kind: 'object', keys, children: keys.map((k) => walk(t[k])) };
    }
    leaves.push(t);
    return { kind: 'leaf' };
  };
  return { leaves, def: walk(tree) };
}

/** Rebuilds a tree of structure `def` from `leaves`. */
export function unflatten(def, leaves) {
  let i = 0;
  const build = (d) => {
    if (d.kind === 'none') return d.value;
    if (d.kind === 'leaf') return leaves[i++];
    if (d.kind === 'array') return d.children.map(build);
    if (d.kind === 'node') return d.cls.treeUnflatten(d.aux, d.children.map(build));
    const out = {};
    d.keys.forEach((k, j) => {
      out[k] = build(d.children[j]);
    });
    return out;
  };
  return build(def);
}

/** Number of leaves of a structure. */
export function numLeaves(def) {
  if (def.kind === 'leaf') return 1;
  if (def.kind === 'none') return 0;
  return def.children.reduce((n, c) => n + numLeaves(c), 0);
}

/** A short description of a structure, for error messages: [*, {a: *, b: *}]. */
export function describe(def) {
  if (def.kind === 'leaf') return '*';
  if (def.kind === 'none') return String(def.value);
  if (def.kind === 'array') return `[${def.children.map(describe).join(', ')}]`;
  if (def.kind === 'node') return `${def.cls.name}(${def.children.map(describe).join(', ')})`;
  return `{${def.keys.map((k, j) => `${k}: ${describe(def.children[j])}`).join(', ')}}`;
}

/**
 * Broadcasts `prefix` (a tree whose leaves satisfy isPrefixLeaf, e.g. specs)
 * over the structure `def`: each prefix leaf stands for the whole subtree at
 * its place, as JAX's tree prefixes do. Returns one prefix leaf per leaf of
 * `def`; `what` names the argument in errors.
 */
export function broadcastPrefix(prefix, def, isPrefixLeaf, what) {
  const out = [];
  const fill = (p, d, path) => {
    if (isPrefixLeaf(p)) {
      for (let k = numLeaves(d); k > 0; k--) out.push(p);
      return;
    }
    if (d.kind === 'array' && Array.isArray(p) && p.length === d.children.length) {
      d.children.forEach((c, j) => fill(p[j], c, `${path}[${j}]`));
      return;
    }
    if (d.kind === 'object' && isPlainObject(p)) {
      const keys = Object.keys(p);
      if (keys.length === d.keys.length && d.keys.every((k) => k in p)) {
        d.keys.forEach((k, j) => fill(p[k], d.children[j], `${path}.${k}`));
        return;
      }
    }
    if (d.kind === 'none' && (p === null || p === undefined)) return;
    if (d.kind === 'array' && Array.isArray(p)) {
      const n = (k) => `${k} entr${k === 1 ? 'y' : 'ies'}`;
      throw new ValueError(
        `${what}${path}: has ${n(p.length)}, but the structure ${describe(d)} has ${d.children.length}; give one entry per element or one for a whole subtree`,
      );
    }
    throw new ValueError(
      `${what}${path}: does not match the structure ${describe(d)}; give one entry per leaf or one for a whole subtree`,
    );
  };
  fill(prefix, def, '');
  return out;
}

/** Each leaf's key path in the structure, as JAX's keystr writes it: [0]['w'][1]. */
export function keyPaths(def) {
  const out = [];
  const walk = (d, path) => {
    if (d.kind === 'leaf') out.push(path);
    else if (d.kind === 'object') d.keys.forEach((k, j) => walk(d.children[j], `${path}['${k}']`));
    else if (d.kind !== 'none') d.children.forEach((c, j) => walk(c, `${path}[${j}]`));
  };
  walk(def, '');
  return out;
}

/**
 * For each leaf of `def`, the key path (keystr) of the prefix leaf it falls
 * under in `prefix` (a tree prefix whose leaves satisfy isPrefixLeaf, as in
 * broadcastPrefix): where JAX's messages point in an in_specs or out_specs.
 */
export function prefixPaths(prefix, def, isPrefixLeaf, what) {
  const paths = [];
  const walk = (p, path) => {
    if (isPrefixLeaf(p) || p === null || typeof p !== 'object') return paths.push(path) - 1;
    if (Array.isArray(p)) return p.map((c, k) => walk(c, `${path}[${k}]`));
    return Object.fromEntries(Object.keys(p).map((k) => [k, walk(p[k], `${path}['${k}']`)]));
  };
  return broadcastPrefix(walk(prefix, ''), def, (x) => typeof x === 'number', what).map((i) => paths[i]);
}

/** Flattens a function's argument list: always a list node, whatever its elements are. */
export function flattenArgs(args, isLeaf = () => false) {
  const leaves = [];
  const children = args.map((a) => {
    const f = flatten(a, isLeaf);
    leaves.push(...f.leaves);
    return f.def;
  });
  return { leaves, def: { kind: 'array', children } };
}
