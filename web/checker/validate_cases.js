// Validating cases before anything runs: their structure, every value's
// type, rectangular arrays, and the problem's own constraints (its inputs,
// outputs, dims and validate; the format is in constraints.js). A case
// outside them is the file's fault, so it is reported as such, naming the
// case, the field and what is allowed, and never reaches a solution or the
// reference, which would otherwise be blamed for it.

import { allowsSize, DTYPES, inRange, rangeText, shapeText, sizeRuleText } from './constraints.js';

const CASE_FORMAT = '{"input": {...}, "expected": {...}} ("expected" may be omitted: the reference computes it)';

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

// What a JSON value is, for messages: 'a string ("0.5")', 'null', 'an array'.
function kind(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return `a string (${JSON.stringify(v.length > 20 ? `${v.slice(0, 20)}...` : v)})`;
  return `a ${typeof v} (${v})`;
}

// A size along one axis in words: "7 rows", "2 columns", "3 entries".
function sizeText(size, axis, rank) {
  if (rank === 1) return plural(size, 'entry', 'entries');
  if (rank === 2) return axis === 0 ? plural(size, 'row', 'rows') : plural(size, 'column', 'columns');
  return `size ${size} along axis ${axis}`;
}

// What one element is, by dtype, for messages.
const SCALARS = { float32: 'a number (a float32 scalar)', int32: 'an integer (an int32 scalar)', bool: 'true or false (a bool scalar)' };
const arrayText = (shape, dtype) => (shape.length ? `a ${shape.length}-D ${dtype} array of shape ${shapeText(shape)}` : SCALARS[dtype]);

/**
 * Walks `value` (the field `name` of `where`, 'input' or 'expected') down
 * the rank of its `shape`, each element of its `dtype`: {shape (the sizes
 * found), leaves: [[path, value]]}
 * or {error} for a wrong type, a wrong rank or ragged rows.
 */
function walk(where, name, value, { shape, dtype }) {
  const rank = shape.length;
  const sizes = [];
  const leaves = [];
  const visit = (v, depth, path) => {
    if (depth === rank) {
      if (typeof v === (dtype === 'bool' ? 'boolean' : 'number')) {
        leaves.push([path, v]);
        return null;
      }
      if (depth === 0) return `${where} ${name} must be ${arrayText(shape, dtype)}, got ${kind(v)}`;
      if (Array.isArray(v)) return `${where} ${name} must be ${arrayText(shape, dtype)}, but ${path} is an array`;
      return `${where} ${path} is ${kind(v)}; the elements of ${name} are ${dtype === 'bool' ? 'true or false' : 'numbers'}`;
    }
    if (!Array.isArray(v)) return depth === 0 ? `${where} ${name} must be ${arrayText(shape, dtype)}, got ${kind(v)}` : `${where} ${name} must be ${arrayText(shape, dtype)}, but ${path} is ${kind(v)}`;
    if (!sizes[depth]) sizes[depth] = { size: v.length, path };
    else if (sizes[depth].size !== v.length) {
      const first = sizes[depth];
      return `${where} ${name} is not rectangular: ${first.path} has ${plural(first.size, 'entry', 'entries')} but ${path} has ${v.length}`;
    }
    for (let i = 0; i < v.length; i++) {
      const e = visit(v[i], depth + 1, `${path}[${i}]`);
      if (e) return e;
    }
    return null;
  };
  const error = visit(value, 0, name);
  // An empty axis has no elements to show the sizes below it: they count as 0.
  return error ? { error } : { shape: shape.map((_, d) => sizes[d]?.size ?? 0), leaves };
}

// Every element is of its dtype and, for inputs, within its value range.
function leafError(where, name, leaves, { dtype, values }) {
  const type = DTYPES[dtype];
  for (const [path, v] of leaves) {
    if (!type.test(v)) return `${where} ${path} = ${v} is not ${type.what}`;
    if (values && !inRange(values, v, dtype)) {
      return path === name ? `${where} ${name} = ${v} is out of range: ${rangeText(name, values)} is required` : `${where} ${path} = ${v} is out of range: the elements of ${name} must satisfy ${rangeText(name, values)}`;
    }
  }
  return null;
}

// Binds the dimensions of input `name` into `dims` ({D: {size, name, axis, rank}}), checking each against its rule and earlier arguments.
function dimsError(problem, name, spec, shape, dims) {
  const rank = shape.length;
  for (const [axis, dim] of spec.shape.entries()) {
    const size = shape[axis];
    const has = `input ${name} has ${sizeText(size, axis, rank)}`;
    if (typeof dim === 'number') {
      if (size !== dim) return `${has}; ${name} must have ${sizeText(dim, axis, rank)}`;
    } else if (dims[dim]) {
      const b = dims[dim];
      if (b.size !== size) return `${has} (${dim}) but ${b.name} has ${sizeText(b.size, b.axis, b.rank)} (${dim}); the two must be equal`;
    } else {
      if (!allowsSize(problem.dims[dim], size)) return `${has} (${dim}); ${dim} must be ${sizeRuleText(problem.dims[dim])}`;
      dims[dim] = { size, name, axis, rank };
    }
  }
  return null;
}

/**
 * Checks one case's input against the problem's constraints: {dims (each
 * dimension's size, {N: 8, ...})} or {error}.
 */
export function checkInput(problem, input) {
  const args = problem.args;
  if (!isObject(input)) return { error: `input must be an object of the arguments {${args.join(', ')}}, got ${kind(input)}` };
  const unknown = Object.keys(input).find((k) => !args.includes(k));
  if (unknown !== undefined) return { error: `input has an unknown argument ${JSON.stringify(unknown)}; the arguments are ${args.join(', ')}` };
  const missing = args.filter((a) => !Object.hasOwn(input, a));
  if (missing.length) return { error: `input lacks ${missing.join(', ')}; the arguments are ${args.join(', ')}` };
  const dims = {};
  for (const name of args) {
    const spec = problem.inputs[name];
    const w = walk('input', name, input[name], spec);
    const error = w.error ?? dimsError(problem, name, spec, w.shape, dims) ?? leafError('input', name, w.leaves, spec);
    if (error) return { error };
  }
  // Relations between fields run last: they may rely on every shape being right.
  const error = problem.validate?.(input) ?? null;
  if (error) return { error };
  return { dims: Object.fromEntries(Object.entries(dims).map(([d, b]) => [d, b.size])) };
}

// A case's expected outputs against the shapes its input gives them (dims); a message or null.
function expectedError(problem, expected, dims) {
  const keys = Object.keys(problem.outputs);
  const omit = 'give every output or omit "expected" to have the reference compute them';
  if (!isObject(expected)) return `expected must be an object of the outputs {${keys.join(', ')}}, got ${kind(expected)}; ${omit}`;
  const unknown = Object.keys(expected).find((k) => !keys.includes(k));
  if (unknown !== undefined) return `expected has an unknown output ${JSON.stringify(unknown)}; the outputs are ${keys.join(', ')}`;
  const missing = keys.filter((k) => !Object.hasOwn(expected, k));
  if (missing.length) return `expected lacks ${missing.join(', ')}; ${omit}`;
  for (const key of keys) {
    const spec = problem.outputs[key];
    const w = walk('expected', key, expected[key], spec);
    if (w.error) return w.error;
    const want = spec.shape.map((d) => (typeof d === 'number' ? d : (dims[d] ?? problem.derived[d].size(dims))));
    if (JSON.stringify(w.shape) !== JSON.stringify(want)) {
      return `expected ${key} has shape [${w.shape.join(', ')}]; for this input it must be ${shapeText(spec.shape)} = [${want.join(', ')}]`;
    }
    const error = leafError('expected', key, w.leaves, spec);
    if (error) return error;
  }
  return null;
}

// One case; a message or null.
function caseError(problem, c) {
  if (!isObject(c)) return `a case must be an object ${CASE_FORMAT}, got ${kind(c)}`;
  const unknown = Object.keys(c).find((k) => k !== 'input' && k !== 'expected');
  if (unknown !== undefined) return `unknown field ${JSON.stringify(unknown)}; a case is ${CASE_FORMAT}`;
  if (!Object.hasOwn(c, 'input')) return `no "input"; a case is ${CASE_FORMAT}`;
  const { error, dims } = checkInput(problem, c.input);
  if (error) return error;
  return Object.hasOwn(c, 'expected') ? expectedError(problem, c.expected, dims) : null;
}

/** The most cases one check runs: the judge's work grows with them. */
export const MAX_CASES = 1000;

/**
 * The first thing wrong with `cases` (a parsed --cases file) for `problem`,
 * as a message naming the case (numbered from 1, as the report names them),
 * the field and what is allowed; null when every case is valid.
 */
export function validateCases(problem, cases) {
  if (!Array.isArray(cases)) return `expected a JSON array of cases [${CASE_FORMAT}, ...], got ${kind(cases)}`;
  if (!cases.length) return 'no cases to check: the array is empty';
  if (cases.length > MAX_CASES) return `${cases.length} cases: a check runs at most ${MAX_CASES} (split them over several checks)`;
  for (const [i, c] of cases.entries()) {
    const error = caseError(problem, c);
    if (error) return `case ${i + 1}: ${error}`;
  }
  return null;
}
