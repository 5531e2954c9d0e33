// How the judge compares an output with its expected value, entry by entry:
// one rule for the engine's verdict and the page's highlighted entries, so
// the page never marks an entry the judge accepted (or the reverse).

/** The shape of a nested JS array (a number or boolean is a scalar: []). */
export const shapeOf = (x) => (Array.isArray(x) ? [x.length, ...shapeOf(x[0])] : []);

/** The problem's tolerance for float32 outputs: {atol, rtol} (1e-4 both unless the problem states its own). */
export const toleranceOf = (problem) => problem.tolerance ?? { atol: 1e-4, rtol: 1e-4 };

/**
 * Whether an entry of an output of `dtype` matches: (actual, expected) →
 * boolean, within the problem's tolerance for float32, exactly for int32 and
 * bool (booleans compare as 0 and 1); NaN never matches.
 */
export function entryMatcher(problem, dtype) {
  const { atol, rtol } = toleranceOf(problem);
  if (dtype !== 'float32') return (a, e) => Number(a) === Number(e);
  return (a, e) => Math.abs(Number(a) - Number(e)) <= atol + rtol * Math.abs(Number(e));
}
