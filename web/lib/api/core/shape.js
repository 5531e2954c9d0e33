// Shapes given to ShardLab from JavaScript, checked before they reach the
// core: a dimension is an integer in 0..2^53 - 1 (Number.isSafeInteger: a JS
// number holds every integer up to there exactly), so 2.5, NaN, -1, Infinity and '3' are ValueErrors naming
// the function and the argument; and an array must fit in the device
// memory, else a ResourceError names its bytes and the limit. The core
// checks the same where shapes enter it (cpp/runtime/sizes.h): these checks
// only make the messages name the function the user called.

import { ResourceError, ShapeError, ValueError } from '../../errors.js';
import { state } from './state.js';
import { isTracer } from './tracer.js';

/** The largest dimension (2^53 - 1, as the core's kMaxDimension). */
export const MAX_DIMENSION = Number.MAX_SAFE_INTEGER;

const BYTES_PER_ELEMENT = 4; // every element is stored in a 4-byte lane (dtypes.js), a bool or int8 too

/** A value as messages quote it: 2.5, NaN, '3', undefined. */
export function quote(v) {
  if (typeof v === 'string') return `'${v}'`;
  if (typeof v === 'number' || typeof v === 'boolean' || v === null || v === undefined) return String(v);
  return Array.isArray(v) ? `an array of length ${v.length}` : `a ${typeof v}`;
}

/** Whether `d` is a valid dimension: an integer in 0..2^53 - 1. */
export function isDimension(d) {
  return Number.isSafeInteger(d) && d >= 0;
}

/**
 * Checks the dimensions of `shape`, argument `arg` of `fn` (`allowUnknown`:
 * one entry may be -1, as reshape takes); returns a copy.
 */
export function checkDimensions(shape, fn, arg = 'shape', { allowUnknown = false } = {}) {
  if (!Array.isArray(shape)) {
    throw new ValueError(`${fn}: ${arg} must be an array of dimensions (integers >= 0), got ${quote(shape)}`);
  }
  let unknown = 0;
  shape.forEach((d, i) => {
    if (allowUnknown && d === -1 && unknown++ === 0) return;
    if (isTracer(d)) {
      // JAX's TypeError (core.canonicalize_shape): a shape is static, known while tracing.
      throw new ShapeError(
        `Shapes must be 1D sequences of concrete values of integer type, got (${shape.map(String).join(', ')}). ` +
          `${fn}: ${arg}[${i}] is traced, so its value is unknown while tracing; make it static (static_argnums) or compute it from shapes.`,
      );
    }
    if (!isDimension(d)) {
      const valid = allowUnknown ? `integers in 0..${MAX_DIMENSION}, or -1 once` : `integers in 0..${MAX_DIMENSION}`;
      throw new ValueError(`${fn}: ${arg}[${i}] is ${quote(d)} in ${arg} [${shape.map(quote)}]; dimensions must be ${valid}`);
    }
  });
  return [...shape];
}

/** Bytes as people read them: "4294967296 bytes (4 GiB)". */
export function bytesString(bytes) {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];
  let scaled = bytes / 1024;
  let unit = 0;
  while (scaled >= 1024 && unit < units.length - 1) {
    scaled /= 1024;
    unit++;
  }
  const exact = Number.isSafeInteger(bytes) ? `${bytes}` : bytes.toPrecision(3);
  return `${exact} bytes (${Number(scaled.toPrecision(3))} ${units[unit]})`;
}

/** The device memory in bytes (the core's limit), or Infinity before init(). */
export function deviceMemoryBytes() {
  return state.runtime ? state.runtime.deviceMemoryBytes() : Infinity;
}

/**
 * Checks that a `dtype` array of `shape` (dimensions already checked) fits in
 * the device memory; errors name `fn` and `what`.
 */
export function checkFits(shape, dtype, fn, what = 'shape') {
  const bytes = shape.includes(0) ? 0 : shape.reduce((a, b) => a * b, BYTES_PER_ELEMENT);
  const limit = deviceMemoryBytes();
  if (bytes > limit) {
    throw new ResourceError(
      `${fn}: ${what} [${shape}] of ${dtype} needs ${bytesString(bytes)}, more than the ${bytesString(limit)} of device memory; arrays must fit in it`,
    );
  }
}

/** checkDimensions, then checkFits: the shape of a new `dtype` array made by `fn`. */
export function checkShape(shape, fn, dtype = 'float32', arg = 'shape') {
  const s = checkDimensions(shape, fn, arg);
  checkFits(s, dtype, fn, arg);
  return s;
}
