// A seeded random source for generated cases (mulberry32): the same seed
// gives the same cases on every machine.

/** A random source with the helpers the problems' generators use. */
export function makeRng(seed) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  // Values rounded to 3 decimals, as a learner's test data would be.
  const uniform = (lo, hi) => Math.round((lo + (hi - lo) * next()) * 1000) / 1000;
  return {
    /** A float in [0, 1). */
    next,
    /** An integer in [lo, hi]. */
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    /** One of the values. */
    pick: (values) => values[Math.floor(next() * values.length)],
    /** A value in [lo, hi] with 3 decimals. */
    uniform,
    /** A vector of n values in [lo, hi]. */
    vector: (n, lo, hi) => Array.from({ length: n }, () => uniform(lo, hi)),
    /** A rows x cols matrix of values in [lo, hi]. */
    matrix: (rows, cols, lo, hi) => Array.from({ length: rows }, () => Array.from({ length: cols }, () => uniform(lo, hi))),
  };
}
