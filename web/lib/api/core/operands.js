// Operands of traced operations: traced values, JS numbers (weakly typed
// literals, as Python scalars in JAX), concrete arrays and array data (both
// captured as constants of the program: extra inputs, filled in at run time).

import { array, DArray, hostData } from './array.js';
import { ShapeError, TypePromotionError, ValueError } from '../../errors.js';
import { isFloat, promoteTypes, wrapToDtype } from '../../dtypes.js';
import { currentTrace } from './state.js';
import { isTracer, Tracer } from './tracer.js';
import { isNumericData } from './tree.js';
import { isScalar, WeakFloat } from './weak_float.js';
import { pyTuple } from './python_text.js';

/**
 * {dtype, shape, weak} of an operand: weak (JAX's weak_type) for JS numbers
 * and WeakFloats, as Python's int and float, and for arrays and traced values
 * computed from weak values only; a boolean is a strong bool, as Python's.
 */
export function avalOf(x, fn) {
  if (isTracer(x) || x instanceof DArray) return { dtype: x.dtype, shape: x.shape, weak: x.weakType, sharding: x.typeSharding };
  if (typeof x === 'number') return { dtype: Number.isInteger(x) ? 'int32' : 'float32', shape: [], weak: true };
  if (x instanceof WeakFloat) return { dtype: 'float32', shape: [], weak: true };
  if (typeof x === 'boolean') return { dtype: 'bool', shape: [], weak: false };
  if (isNumericData(x) || ArrayBuffer.isView(x)) {
    const h = hostData(x, {}, fn);
    return { dtype: h.dtype, shape: h.shape, weak: false };
  }
  throw new ValueError(`${fn}: expected an array, a traced value or a number, got ${describeValue(x)}`);
}

// A typed key array (random.key): its dtype is key<fry>, which arithmetic refuses.
const isKeyValue = (x) => x !== null && typeof x === 'object' && x.dtype === 'key<fry>';

/** JAX's TypeError when a typed key array is an operand of the arithmetic primitive `prim`; errors name `fn`. */
export function refuseKeys(prim, xs, fn) {
  if (!xs.some(isKeyValue)) return;
  const dtypes = [...new Set(xs.map((x) => (isKeyValue(x) ? 'key<fry>' : avalOf(x, fn).dtype)))];
  throw new ShapeError(`${prim} does not accept dtype${dtypes.length > 1 ? 's' : ''} ${dtypes.join(', ')}.`);
}

/** A short description of a JS value for messages. */
export function describeValue(x) {
  if (x === null) return 'null';
  if (Array.isArray(x)) return `a JS array of length ${x.length}`;
  if (typeof x === 'object') return `an object (${x.constructor?.name ?? 'Object'})`;
  return `${typeof x} ${String(x)}`;
}

/** The traced value of x in the current trace `t` (concrete values become captured constants). */
export function traced(t, x, fn) {
  if (isTracer(x)) {
    x.atomIn(t);
    return x;
  }
  const root = t.root;
  let arr = x;
  if (!(x instanceof DArray)) {
    if (isScalar(x)) {
      const a = avalOf(x, fn);
      return literalTracer(t, x, a.dtype, a.weak);
    }
    arr = array(x);
  }
  if (!root.consts) return ruleConstant(t, arr, fn);
  let tr = root.constTracers.get(arr);
  if (!tr) {
    tr = root.wrap([root.core.input(arr.dtype, arr.shape, arr.weakType, arr.typeSharding)])[0];
    root.consts.push(arr);
    root.constTracers.set(arr, tr);
  }
  return tr;
}

// A custom rule emits into a program with no inputs to spare for constants
// (the core traces it when a derivative needs it): a concrete array whose
// entries are all equal (np.zeros(()), a ones array) is its value as a
// literal broadcast to its shape; any other is refused.
function ruleConstant(t, arr, fn) {
  let data = null;
  try {
    data = arr.dataSync();
  } catch {
    // still being computed elsewhere (the lockstep worker): refused below
  }
  if (!data || !data.every((v) => Object.is(v, data[0]))) {
    throw new ValueError(
      `${fn === t.root.kind ? fn : `${fn} in ${t.root.kind}`}: a custom rule can use a concrete array only when all its entries are equal (a constant); ` +
        "compute the array with jax.numpy from the rule's arguments, or pass it to the function as an argument",
    );
  }
  const scalar = literalTracer(t, data.length ? data[0] : 0, arr.dtype, arr.weakType);
  if (arr.shape.length === 0) return scalar;
  return t.emit('broadcast_in_dim', { shape: arr.shape, broadcast_dimensions: [] }, [scalar.atomIn(t)])[0];
}

/** A literal scalar of `dtype` as a traced value of trace t (rank 0; not a variable), weakly typed when `weak` (a Python scalar's). */
export function literalTracer(t, literal, dtype, weak = false) {
  const value = literal instanceof WeakFloat ? literal.value : literal;
  return new Tracer(t, { literal: wrapToDtype(value, dtype), dtype, shape: [], vma: [], weak });
}

/** The current trace, for an operation named `fn` called inside one. */
export function traceFor(fn) {
  const t = currentTrace();
  if (!t) throw new ValueError(`${fn}: internal: no trace`);
  return t;
}

/**
 * numpy's broadcast shape of several shapes; errors name `fn`. With `prim`
 * (the lax primitive an elementwise numpy function binds) a mismatch of
 * shapes of one rank is JAX's error of the primitive's shape rule, as jnp
 * leaves such operands to lax; otherwise it is jnp's rank promotion error.
 */
export function broadcastShapes(shapes, fn, prim = null) {
  const rank = Math.max(0, ...shapes.map((s) => s.length));
  const out = [];
  for (let i = 0; i < rank; i++) {
    let d = 1;
    for (const s of shapes) {
      const k = s.length - rank + i;
      const n = k >= 0 ? s[k] : 1;
      if (n !== 1 && d !== 1 && n !== d) throw broadcastError(shapes, fn, prim);
      if (n !== 1) d = n;
    }
    out.push(d);
  }
  return out;
}

// JAX's errors for shapes that do not broadcast (lax's _try_broadcast_shapes, jnp's broadcast_shapes).
function broadcastError(shapes, fn, prim) {
  if (prim && new Set(shapes.filter((s) => s.length).map((s) => s.length)).size <= 1) {
    return new ShapeError(`${prim} got incompatible shapes for broadcasting: ${shapes.map(pyTuple).join(', ')}.`);
  }
  return new ValueError(`${fn}: Incompatible shapes for broadcasting: shapes=[${shapes.map(pyTuple).join(', ')}]`);
}

/**
 * The dtype and weak type of a binary/variadic numpy operation on operands of
 * these avals, as JAX's promotion lattice joins them (dtypes.js): weak values
 * adopt the strong ones' dtype; the result is weak when a weak operand's kind
 * is above every strong operand's (int32 + 1.5 is a weak float32, as i32 ∨ f* = f*).
 */
export function resultType(avals) {
  return promotion === 'strict' ? strictResultType(avals) : promoteTypes(avals);
}

let promotion = 'standard';

/**
 * jax.numpy_dtype_promotion: sets how operations traced from now on join
 * dtypes, 'standard' (JAX's lattice) or 'strict' (no implicit promotion
 * between different dtypes; a Python scalar only joins a dtype of its kind
 * or above); returns the previous mode, for restoring it.
 */
export function numpyDtypePromotion(mode) {
  if (mode !== 'standard' && mode !== 'strict') throw new ValueError(`numpyDtypePromotion: mode must be 'standard' or 'strict', got ${JSON.stringify(mode)}`);
  const before = promotion;
  promotion = mode;
  return before;
}

// JAX's strict lattice: each dtype is its own upper bound, a weak int
// (Python's int) joins an integer or float dtype, a weak float a float one.
function strictResultType(avals) {
  const strong = [...new Set(avals.filter((a) => !a.weak).map((a) => a.dtype))];
  const weak = new Set(avals.filter((a) => a.weak).map((a) => (isFloat(a.dtype) ? 'float' : 'int')));
  const joins = (s) => [...weak].every((w) => (w === 'int' ? s !== 'bool' : isFloat(s)));
  if (strong.length === 1 && joins(strong[0])) return { dtype: strong[0], weak: false };
  if (strong.length === 0) return { dtype: weak.has('float') ? 'float32' : 'int32', weak: true };
  const names = [...strong.map((d) => `'${d}'`), ...[...weak].map((w) => `"<class '${w}'>"`)];
  throw new TypePromotionError(
    `Input dtypes (${names.join(', ')}) have no available implicit dtype promotion path when jax_numpy_dtype_promotion=strict. Try explicitly casting inputs to the desired output type, or set jax_numpy_dtype_promotion=standard.`,
  );
}

