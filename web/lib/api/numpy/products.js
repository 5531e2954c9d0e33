// jnp's tensor products beyond dot and matmul: tensordot, vecdot, vdot,
// matvec and vecmat, each one dot_general (batch dimensions broadcast first),
// as JAX lowers them.

import { ShapeError, ValueError } from '../../errors.js';
import { defop } from '../core/op.js';
import { avalOf, broadcastShapes, resultType, traced, traceFor } from '../core/operands.js';
import { quote } from '../core/shape.js';
import { asDtype, emitHere, normAxis } from './helpers.js';
import { broadcastTo, dot, expandDims, matmul, squeeze } from './math.js';
import { ravel } from './arrangements.js';
import { moveaxis } from './matrices.js';

// x and y promoted together (dot_general takes one dtype), and that dtype.
function promoted(x, y, fn) {
  const t = traceFor(fn);
  const [a, b] = [traced(t, x, fn), traced(t, y, fn)];
  const { dtype, weak } = resultType([avalOf(a, fn), avalOf(b, fn)]);
  return [asDtype(a, dtype, weak), asDtype(b, dtype, weak), dtype];
}

/**
 * np.tensordot(a, b, axes = 2): the sum over axes of a paired with axes of
 * b: an integer N pairs a's last N with b's first N; a pair of integers or
 * of lists names them. The result has a's other axes, then b's.
 */
export const tensordot = defop('tensordot', 2, (a, b, axes = 2) => {
  const [x, y, dtype] = promoted(a, b, 'np.tensordot');
  let pairs;
  if (Number.isInteger(axes)) {
    if (axes < 0 || axes > x.ndim || axes > y.ndim) {
      throw new ValueError(`np.tensordot: axes=${axes} must be between 0 and the ranks of the operands (${x.ndim} and ${y.ndim})`);
    }
    pairs = [Array.from({ length: axes }, (_, i) => x.ndim - axes + i), Array.from({ length: axes }, (_, i) => i)];
  } else if (Array.isArray(axes) && axes.length === 2) {
    const list = (v) => (Array.isArray(v) ? v : [v]);
    pairs = [list(axes[0]).map((d) => normAxis(d, x.ndim, 'np.tensordot')), list(axes[1]).map((d) => normAxis(d, y.ndim, 'np.tensordot'))];
    if (pairs[0].length !== pairs[1].length) {
      throw new ShapeError(`np.tensordot: axes ${quote(axes)} name ${pairs[0].length} axes of a and ${pairs[1].length} of b; give as many of each`);
    }
  } else {
    throw new ValueError(`np.tensordot: axes ${quote(axes)} must be an integer or a pair of axes or axis lists`);
  }
  pairs[0].forEach((d, i) => {
    if (x.shape[d] !== y.shape[pairs[1][i]]) {
      throw new ShapeError(`np.tensordot: axis ${d} of ${x.aval} (size ${x.shape[d]}) and axis ${pairs[1][i]} of ${y.aval} (size ${y.shape[pairs[1][i]]}) must have the same size`);
    }
  });
  return emitHere('tensordot', 'dot_general', { dimension_numbers: [pairs[0], pairs[1], [], []], preferred_element_type: dtype, out_sharding: null }, [x, y]);
});

/**
 * np.vecdot(x1, x2, {axis = -1}): the dot product of the vectors along
 * `axis`, the other axes broadcast together (a batched dot_general).
 */
export const vecdot = defop('vecdot', 2, (x1, x2, { axis = -1 } = {}) => {
  let [x, y, dtype] = promoted(x1, x2, 'np.vecdot');
  if (x.ndim === 0 || y.ndim === 0) throw new ShapeError(`np.vecdot: operands must have rank >= 1, got ${x.aval} and ${y.aval}`);
  [x, y] = [moveaxis(x, normAxis(axis, x.ndim, 'np.vecdot'), -1), moveaxis(y, normAxis(axis, y.ndim, 'np.vecdot'), -1)];
  if (x.shape[x.ndim - 1] !== y.shape[y.ndim - 1]) {
    throw new ShapeError(`np.vecdot: the vectors along axis ${axis} have sizes ${x.shape[x.ndim - 1]} and ${y.shape[y.ndim - 1]}; they must be equal`);
  }
  const batch = broadcastShapes([x.shape.slice(0, -1), y.shape.slice(0, -1)], 'np.vecdot');
  [x, y] = [broadcastTo(x, [...batch, x.shape[x.ndim - 1]]), broadcastTo(y, [...batch, y.shape[y.ndim - 1]])];
  const b = batch.map((_, i) => i);
  return emitHere('vecdot', 'dot_general', { dimension_numbers: [[batch.length], [batch.length], b, b], preferred_element_type: dtype, out_sharding: null }, [x, y]);
});

/** np.matvec(x1, x2): each matrix (..., m, n) of x1 times each vector (..., n) of x2, batches broadcast: (..., m). */
export const matvec = defop('matvec', 2, (x1, x2) => {
  const [x, y] = promoted(x1, x2, 'np.matvec');
  if (x.ndim < 2 || y.ndim < 1) throw new ShapeError(`np.matvec: needs matrices (rank >= 2) and vectors (rank >= 1), got ${x.aval} and ${y.aval}`);
  return squeeze(matmul(x, expandDims(y, -1)), -1);
});

/** np.vecmat(x1, x2): each vector (..., n) of x1 times each matrix (..., n, m) of x2, batches broadcast: (..., m). */
export const vecmat = defop('vecmat', 2, (x1, x2) => {
  const [x, y] = promoted(x1, x2, 'np.vecmat');
  if (x.ndim < 1 || y.ndim < 2) throw new ShapeError(`np.vecmat: needs vectors (rank >= 1) and matrices (rank >= 2), got ${x.aval} and ${y.aval}`);
  return squeeze(matmul(expandDims(x, -2), y), -2);
});

/** jnp.vdot(a, b): the dot product of a and b flattened (of real dtypes: no conjugate to take), as JAX's dot of the ravels. */
export const vdot = defop('vdot', 2, (a, b) => dot(ravel(a), ravel(b)));
