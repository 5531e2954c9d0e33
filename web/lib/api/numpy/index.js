// sl.np: numpy's functions over traced values and arrays, the face only:
// each part (math, matrices, indexing, bitwise, nonzero, sorting, einsum,
// logaddexp, closeness, pad, products, float functions, arrangements,
// types, nan reductions, quantiles, polynomials, index arrays, searching,
// unique, linalg) holds its functions, helpers.js what they share, which
// no public namespace exports.

export * from './math.js';
export * from './matrices.js';
export * from './indexing.js';
export * from './bitwise.js';
export { argwhere, flatnonzero, nonzero, where } from './nonzero.js';
export * from './sorting.js';
export * from './einsum.js';
export * from './closeness.js';
export { pad } from './pad.js';
export * from './products.js';
export * from './float_functions.js';
export * from './arrangements.js';
export { resultType } from './types.js';
export * from './nan_reductions.js';
export { median, nanmedian, nanpercentile, nanquantile, percentile, quantile } from './quantiles.js';
export * from './polynomials.js';
export * from './index_arrays.js';
export * from './searching.js';
export { unique } from './unique.js';
export { logaddexp } from './logaddexp.js';
export * as linalg from './linalg.js';
