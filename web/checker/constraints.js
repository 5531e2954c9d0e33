// A problem's constraints as data, read by the cases validator
// (validate_cases.js) and turned into the one-line text the page shows, so
// the limits are written once. The data, on the problem object:
//
//   inputs:  {<argument>: {dtype, shape, values?}}, in the order the solution takes them
//   outputs: {<key>: {dtype, shape, ...}}, shapes in the inputs' dimensions
//   dims:    {<name>: {oneOf: [sizes]} | {min, max}}, in the order the text lists them
//   derived?: {<name>: {size(dims), what}}: an output's dimension computed from
//            the inputs' (a bucket width from L), named in outputs' shapes
//   validate(input)?: a message or null, for relations the shapes cannot state
//
// shape lists one entry per axis: a dimension's name ('N') or a fixed size
// (8); [] is a scalar (a JSON number). values bounds every element with any
// of gt, ge, lt, le (0 < lr <= 0.3 is {gt: 0, le: 0.3}).

/** The dtypes an input or output may have: what each element must be. */
export const DTYPES = {
  // JSON numbers are float64; the devices hold float32, so 1e39 would become Infinity.
  float32: { test: (v) => typeof v === 'number' && Number.isFinite(Math.fround(v)), what: 'a finite float32 (magnitude about 3.4e38 at most)' },
  int32: { test: (v) => Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31, what: 'an int32 (an integer from -2147483648 to 2147483647)' },
  // JSON's true and false: a bool output (a mask) is compared exactly.
  bool: { test: (v) => typeof v === 'boolean', what: 'a bool (true or false)' },
};

/** Whether `size` satisfies the dimension rule `rule`. */
export const allowsSize = (rule, size) => (rule.oneOf ? rule.oneOf.includes(size) : size >= rule.min && size <= rule.max);

/** What a dimension must be, for messages: "one of 8, 16" or "between 1 and 4". */
export const sizeRuleText = (rule) => (rule.oneOf ? `one of ${rule.oneOf.join(', ')}` : `between ${rule.min} and ${rule.max}`);

/**
 * Whether `v` lies in the value range `r` ({gt, ge, lt, le}, each optional),
 * as an argument of `dtype` holds it: a float32 argument is compared after
 * rounding to float32, with the bounds rounded too (0.30000001192092896,
 * float32's 0.3 as a float32 array writes it out, satisfies lr <= 0.3).
 */
export function inRange(r, v, dtype = 'float64') {
  const held = dtype === 'float32' ? Math.fround : (x) => x;
  const [x, gt, ge, lt, le] = [v, r.gt, r.ge, r.lt, r.le].map((b) => (b === undefined ? b : held(b)));
  return !(x <= gt) && !(x < ge) && !(x >= lt) && !(x > le);
}

/** A value range as an inequality on `name`: "0 < lr <= 0.3". */
export function rangeText(name, r) {
  const lower = 'gt' in r ? `${r.gt} < ` : 'ge' in r ? `${r.ge} <= ` : '';
  const upper = 'lt' in r ? ` < ${r.lt}` : 'le' in r ? ` <= ${r.le}` : '';
  return `${lower}${name}${upper}`;
}

// "[-1, 1]" where both ends are given (the statements' notation for element ranges).
const intervalText = (r) =>
  ('gt' in r || 'ge' in r) && ('lt' in r || 'le' in r)
    ? `${'gt' in r ? '(' : '['}${r.gt ?? r.ge}, ${r.lt ?? r.le}${'lt' in r ? ')' : ']'}`
    : null;

/** A shape for people: "(N, D)", "(K,)", "(a scalar)". */
export const shapeText = (shape) => (shape.length === 0 ? '(a scalar)' : shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`);

/**
 * The constraints as one line, from the data: the arguments' dtypes and
 * shapes, the dimensions' rules, then the value ranges, e.g. "float32
 * x (8, N); 1 <= N <= 16; values in [-10, 10]".
 */
export function describeConstraints({ inputs, dims }) {
  const entries = Object.entries(inputs);
  const byDtype = new Map();
  for (const [name, a] of entries) byDtype.set(a.dtype, [...(byDtype.get(a.dtype) ?? []), `${name} ${shapeText(a.shape)}`]);
  const shapes = [...byDtype].map(([dtype, args]) => `${dtype} ${args.join(', ')}`);
  const sizes = Object.entries(dims).map(([d, r]) => (r.oneOf ? `${d} in {${r.oneOf.join(', ')}}` : `${r.min} <= ${d} <= ${r.max}`));
  const ranged = entries.filter(([, a]) => a.values);
  const same = ranged.length === entries.length && new Set(ranged.map(([, a]) => JSON.stringify(a.values))).size === 1;
  // Arrays' ranges read as intervals, scalars' as inequalities, as the statements write them.
  const rangeOf = (name, r, array) => (array && intervalText(r) ? `${name} in ${intervalText(r)}` : rangeText(name, r));
  const values = same
    ? [rangeOf('values', ranged[0][1].values, true)]
    : [...(ranged.length < entries.length ? ['finite values'] : []), ...ranged.map(([name, a]) => rangeOf(name, a.values, a.shape.length > 0))];
  return [...shapes, ...sizes, ...values].join('; ');
}
