// The dtypes ShardLab has, in one list: JAX's names, how each prints, its
// size and kind, and the typed array its values come in. Every element is
// stored in a 4-byte lane (cpp/runtime/shape.h): a float16 or bfloat16 is a
// float32 holding a value of its format, an int8 or int16 an int32, a uint8
// or uint16 a uint32, a bool an int32 0 or 1; so a narrow dtype's host data
// is its lane's typed array, holding values of the dtype.

const TABLE = {
  float32: { short: 'f32', kind: 'f', itemsize: 4, lane: Float32Array },
  float16: { short: 'f16', kind: 'f', itemsize: 2, lane: Float32Array },
  bfloat16: { short: 'bf16', kind: 'f', itemsize: 2, lane: Float32Array },
  int32: { short: 'i32', kind: 'i', itemsize: 4, lane: Int32Array },
  int16: { short: 'i16', kind: 'i', itemsize: 2, lane: Int32Array },
  int8: { short: 'i8', kind: 'i', itemsize: 1, lane: Int32Array },
  uint32: { short: 'u32', kind: 'u', itemsize: 4, lane: Uint32Array },
  uint16: { short: 'u16', kind: 'u', itemsize: 2, lane: Uint32Array },
  uint8: { short: 'u8', kind: 'u', itemsize: 1, lane: Uint32Array },
  bool: { short: 'bool', kind: 'b', itemsize: 1, lane: Int32Array },
};

/** Every dtype's name, as numpy spells it. */
export const DTYPE_NAMES = Object.freeze(Object.keys(TABLE));

/** Whether `name` is a dtype here. */
export const isDtypeName = (name) => typeof name === 'string' && Object.hasOwn(TABLE, name);
/** JAX's short name of a dtype, as avals print ('f32', 'bf16', 'u8', ...). */
export const shortName = (dtype) => TABLE[dtype].short;
/** JAX's itemsize of a dtype in bytes (what nbytes counts; a bool is 1). */
export const itemsize = (dtype) => TABLE[dtype].itemsize;
/** The typed array a dtype's elements come in (its 4-byte lane's). */
export const laneArray = (dtype) => TABLE[dtype].lane;
/** Whether a dtype is floating-point (float32, float16, bfloat16). */
export const isFloat = (dtype) => TABLE[dtype]?.kind === 'f';
/** Whether a dtype is an integer type, signed or unsigned (not bool). */
export const isInteger = (dtype) => TABLE[dtype]?.kind === 'i' || TABLE[dtype]?.kind === 'u';
/** Whether a dtype is an unsigned integer type. */
export const isUnsigned = (dtype) => TABLE[dtype]?.kind === 'u';

// JAX's type promotion lattice (jax/_src/dtypes.py, _type_promotion_lattice,
// standard mode without x64): each node's immediate upper bounds. 'i*' and
// 'f*' are Python's int and float (weak types); the 64-bit nodes join but are
// never a result (JAX without x64 canonicalizes them to 32 bits).
const LATTICE = {
  bool: ['i*'],
  'i*': ['uint8', 'int8'],
  uint8: ['int16', 'uint16'],
  uint16: ['int32', 'uint32'],
  uint32: ['int32', 'uint64'], // without x64: u32 x i32 is i32, not i64
  uint64: ['f*'],
  int8: ['int16'],
  int16: ['int32'],
  int32: ['int64'],
  int64: ['f*'],
  'f*': ['bfloat16', 'float16'],
  bfloat16: ['float32'],
  float16: ['float32'],
  float32: ['float64'],
  float64: [],
};
const UPPER = Object.fromEntries(
  Object.keys(LATTICE).map((node) => {
    const ub = new Set([node]);
    for (const n of ub) for (const up of LATTICE[n]) ub.add(up);
    return [node, ub];
  }),
);
const CANONICAL = { 'i*': 'int32', 'f*': 'float32', int64: 'int32', uint64: 'uint32', float64: 'float32' };

// The least upper bound of lattice nodes: the common upper bound below all the others.
function leastUpperBound(nodes) {
  const common = [...UPPER[nodes[0]]].filter((n) => nodes.every((m) => UPPER[m].has(n)));
  return common.find((n) => common.every((m) => UPPER[n].has(m)));
}

/**
 * The dtype and weak type JAX's promotion gives operands of these avals
 * ({dtype, weak}), as jax.numpy.result_type does (lattice_result_type): one
 * dtype shared by a strong operand is kept; operands all weak join as their
 * strong dtypes and stay weak; otherwise a weak operand stands for Python's
 * int or float (its kind's weak node) and the join is weak when it is one.
 */
export function promoteTypes(avals) {
  const dtypes = new Set(avals.map((a) => a.dtype));
  const allWeak = avals.every((a) => a.weak);
  if (dtypes.size === 1 && (avals.length === 1 || !allWeak)) {
    const [dtype] = dtypes;
    return { dtype, weak: avals.length === 1 && avals[0].weak && dtype !== 'bool' };
  }
  const node = (a) => (a.weak && !allWeak && a.dtype !== 'bool' ? (isFloat(a.dtype) ? 'f*' : 'i*') : a.dtype);
  const lub = leastUpperBound([...new Set(avals.map(node))]);
  const weak = allWeak || lub === 'i*' || lub === 'f*';
  const dtype = CANONICAL[lub] ?? lub;
  return { dtype: weak && dtype !== 'bool' ? (isFloat(dtype) ? 'float32' : 'int32') : dtype, weak: weak && dtype !== 'bool' };
}

/**
 * The number an integer or bool dtype holds for `value` (truncated toward
 * zero, then wrapped to its bits, as a literal of that dtype is); a float's
 * value is kept as given (the core rounds it to its dtype).
 */
export function wrapToDtype(value, dtype) {
  if (dtype === 'bool') return Number(Boolean(value));
  if (!isInteger(dtype)) return value;
  const bits = TABLE[dtype].itemsize * 8, v = Math.trunc(value);
  if (isUnsigned(dtype)) return bits === 32 ? v >>> 0 : (v >>> 0) & (2 ** bits - 1);
  return bits === 32 ? v : (v << (32 - bits)) >> (32 - bits); // an int32 wraps in the core
}

/** Each dtype's facts as plain data, in DTYPE_NAMES' order (what Python's jax.numpy builds its dtypes from). */
export const DTYPE_INFO = Object.freeze(Object.entries(TABLE).map(([name, { short, kind, itemsize }]) => Object.freeze({ name, short, kind, itemsize })));

/** JAX's to_inexact_dtype: a float dtype as it is, any other as float32 (without x64). */
export const inexactDtype = (dtype) => (isFloat(dtype) ? dtype : 'float32');
