// A number typed as a float. JS cannot tell 2.0 from 2, so a JS number is
// typed by its value (an integer is a weak int32, as a Python int in JAX);
// a WeakFloat is a weak float32 whatever its value, as a Python float is in
// JAX: Python's jax sends every integral float as one, so 2.0 * x of an int32
// x is float32, as in JAX.

/** A scalar typed weak float32 (Python's float): weakFloat(2) where the number 2 would be a weak int32. */
export class WeakFloat {
  constructor(value) {
    if (typeof value !== 'number') throw new TypeError(`weakFloat: expected a number, got ${typeof value}`);
    this.value = value;
    Object.freeze(this);
  }

  valueOf() {
    return this.value;
  }

  toString() {
    return Number.isInteger(this.value) ? `${this.value}.0` : String(this.value);
  }

  toJSON() {
    return { weakFloat: this.value };
  }
}

/** Whether x is a Python-like scalar: a JS number or boolean, or a WeakFloat (an operand typed weakly, avalOf). */
export const isScalar = (x) => typeof x === 'number' || typeof x === 'boolean' || x instanceof WeakFloat;

/** Whether x is a number weakly typed as Python's int and float are (a JS number or a WeakFloat; a boolean is a strong bool). */
export const isWeakScalar = (x) => typeof x === 'number' || x instanceof WeakFloat;

/** weakFloat(v): the number v typed as a weak float32 (see WeakFloat). */
export const weakFloat = (value) => new WeakFloat(value);

/** A static argument as the operations read it: a WeakFloat as its number (also in an options object, one level deep). */
export function plainStatic(x) {
  if (x instanceof WeakFloat) return x.value;
  if (x !== null && typeof x === 'object' && Object.getPrototypeOf(x) === Object.prototype) {
    return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, v instanceof WeakFloat ? v.value : v]));
  }
  return x;
}
