// jnp's functions that make index arrays from shapes: tril_indices and
// triu_indices (and their _from forms), diag_indices (and _from), indices;
// and fill_diagonal, which sets a diagonal's elements. The indices depend only on the shapes, so
// they are constants of the program, as JAX's (numpy computes them).

import { ValueError } from '../../errors.js';
import { defop } from '../core/op.js';
import { traced, traceFor } from '../core/operands.js';
import { quote } from '../core/shape.js';
import { array } from '../core/array.js';
import { reshape } from './math.js';
import { take } from './indexing.js';
import { updateItem } from '../indexing.js';

const int32 = (values) => array(values, { dtype: 'int32' });
const checkSize = (n, what, fn) => {
  if (!Number.isInteger(n) || n < 0) throw new ValueError(`${fn}: ${what} must be a non-negative integer, got ${quote(n)}`);
};

// The (row, column) pairs of an n x m matrix where keep(i, j) holds, row by row.
function pairs(n, m, keep) {
  const rows = [];
  const cols = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) if (keep(i, j)) rows.push(i), cols.push(j);
  return [int32(rows), int32(cols)];
}

/** jnp.tril_indices(n, k, m): the indices of the lower triangle (j <= i + k) of an n x m (n x n) matrix, as [rows, columns]. */
export function trilIndices(n, k = 0, m = null) {
  checkSize(n, 'n', 'np.tril_indices');
  return pairs(n, m ?? n, (i, j) => j <= i + k);
}
/** jnp.triu_indices(n, k, m): the indices of the upper triangle (j >= i + k), as [rows, columns]. */
export function triuIndices(n, k = 0, m = null) {
  checkSize(n, 'n', 'np.triu_indices');
  return pairs(n, m ?? n, (i, j) => j >= i + k);
}
// The shape of a 2-d array argument (its values are not read).
function matrixShape(arr, fn) {
  const { shape } = arr;
  if (!Array.isArray(shape) || shape.length !== 2) throw new ValueError(`${fn}: the input must be a 2-d array, got shape ${quote(shape)}`);
  return shape;
}
/** jnp.tril_indices_from(arr, k): tril_indices of arr's shape. */
export const trilIndicesFrom = (arr, k = 0) => {
  const [n, m] = matrixShape(arr, 'np.tril_indices_from');
  return trilIndices(n, k, m);
};
/** jnp.triu_indices_from(arr, k): triu_indices of arr's shape. */
export const triuIndicesFrom = (arr, k = 0) => {
  const [n, m] = matrixShape(arr, 'np.triu_indices_from');
  return triuIndices(n, k, m);
};

/** jnp.diag_indices(n, ndim): `ndim` (2) copies of [0, ..., n - 1], the indices of a main diagonal. */
export function diagIndices(n, ndim = 2) {
  checkSize(n, 'n', 'np.diag_indices');
  checkSize(ndim, 'ndim', 'np.diag_indices');
  return Array.from({ length: ndim }, () => int32(Array.from({ length: n }, (_, i) => i)));
}
/** jnp.diag_indices_from(arr): diag_indices of an array whose dimensions are all equal. */
export function diagIndicesFrom(arr) {
  const { shape } = arr;
  if (!Array.isArray(shape) || shape.length < 2 || shape.some((d) => d !== shape[0])) {
    throw new ValueError(`np.diag_indices_from: the input must be at least 2-d with all dimensions equal, got shape ${quote(shape)}`);
  }
  return diagIndices(shape[0], shape.length);
}

/** jnp.indices(dimensions, dtype, sparse): the index along each axis at every position of a grid (stacked), or each as a broadcastable array when sparse. */
export function indices(dimensions, dtype = 'int32', sparse = false) {
  const dims = Array.isArray(dimensions) ? dimensions : [dimensions];
  dims.forEach((d) => checkSize(d, 'each dimension', 'np.indices'));
  const total = dims.reduce((a, b) => a * b, 1);
  const strides = dims.map((_, i) => dims.slice(i + 1).reduce((a, b) => a * b, 1));
  const axisValues = (i) => Array.from({ length: sparse ? dims[i] : total }, (_, p) => (sparse ? p : Math.floor(p / strides[i]) % dims[i]));
  if (sparse) return dims.map((d, i) => array(axisValues(i), { dtype: dtype ?? 'int32', shape: dims.map((e, j) => (j === i ? e : 1)) }));
  return array(dims.flatMap((_, i) => axisValues(i)), { dtype: dtype ?? 'int32', shape: [dims.length, ...dims] });
}

/** jnp.fill_diagonal(a, val, {wrap, inplace}): a copy of a with its main diagonal set to val (cycled); JAX arrays are immutable, so inplace must be false. */
export const fillDiagonal = (a, val, { wrap = false, inplace = true } = {}) => {
  if (inplace) throw new ValueError('np.fill_diagonal: JAX arrays are immutable; pass inplace=False to get the updated array');
  if (wrap) throw new ValueError('np.fill_diagonal: wrap=True is not supported');
  return fillDiagonalOf(a, val);
};
const fillDiagonalOf = defop('fillDiagonal', 2, (a, val) => {
  const v = traced(traceFor('fillDiagonal'), a, 'np.fill_diagonal');
  if (v.ndim < 2 || (v.ndim > 2 && v.shape.some((d) => d !== v.shape[0]))) {
    throw new ValueError(`np.fill_diagonal: array must be at least 2-d, with all dimensions equal beyond 2, got shape [${v.shape}]`);
  }
  const n = Math.min(...v.shape);
  const w = traced(traceFor('fillDiagonal'), val, 'np.fill_diagonal');
  const flat = reshape(w, [w.size]);
  const values = w.ndim === 0 ? w : take(flat, Array.from({ length: n }, (_, i) => i % Math.max(w.size, 1)));
  return updateItem('set', v, diagIndices(n, v.ndim), values);
});
