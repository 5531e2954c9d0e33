// The cases validator (web/checker/validate_cases.js): every kind of bad
// --cases file gets a message naming the case, the field and what is
// allowed; the problems' examples and generated cases are all valid.
import { describe, expect, test } from 'vitest';
import { makeRng } from '../../web/checker/rng.js';
import { checkInput, validateCases } from '../../web/checker/validate_cases.js';
import { loadProblem, PROBLEM_IDS } from '../../web/checker/problems.js';
import dataParallel from '../../problems/data-parallel-step/problem.js';
import tensorParallel from '../../problems/tensor-parallel-mlp/problem.js';
import ring from '../../problems/ring-allreduce-ppermute/problem.js';

const step = dataParallel.examples[0];
// The first data-parallel example's input with some fields replaced.
const stepWith = (fields) => [{ input: { ...step.input, ...fields } }];
const rows = (n, cols = 1) => Array.from({ length: n }, (_, i) => Array.from({ length: cols }, () => i));
const FORMAT = '{"input": {...}, "expected": {...}} ("expected" may be omitted: the reference computes it)';

describe('the file and its cases', () => {
  test.each([
    ['not an array', { input: step.input }, `expected a JSON array of cases [${FORMAT}, ...], got an object`],
    ['a number', 3, `expected a JSON array of cases [${FORMAT}, ...], got a number (3)`],
    ['empty', [], 'no cases to check: the array is empty'],
    ['a case that is null', [step, null], `case 2: a case must be an object ${FORMAT}, got null`],
    ['a case that is an array', [[step.input]], `case 1: a case must be an object ${FORMAT}, got an array`],
    ['no input', [{ expected: step.expected }], `case 1: no "input"; a case is ${FORMAT}`],
    ['an unknown field', [{ ...step, expect: {} }], `case 1: unknown field "expect"; a case is ${FORMAT}`],
  ])('%s', (_, cases, message) => {
    expect(validateCases(dataParallel, cases)).toBe(message);
  });
});

describe('inputs', () => {
  test.each([
    ['input null', [{ input: null }], 'case 1: input must be an object of the arguments {w, b, x, y, lr}, got null'],
    ['input an array', [{ input: [step.input.w] }], 'case 1: input must be an object of the arguments {w, b, x, y, lr}, got an array'],
    ['missing fields', [{ input: { w: [[0]], lr: 0.1 } }], 'case 1: input lacks b, x, y; the arguments are w, b, x, y, lr'],
    ['an unknown argument', stepWith({ z: 1 }), 'case 1: input has an unknown argument "z"; the arguments are w, b, x, y, lr'],
    ['a string scalar', stepWith({ lr: '0.1' }), 'case 1: input lr must be a number (a float32 scalar), got a string ("0.1")'],
    ['NaN as a string', stepWith({ lr: 'NaN' }), 'case 1: input lr must be a number (a float32 scalar), got a string ("NaN")'],
    ['a boolean scalar', stepWith({ lr: true }), 'case 1: input lr must be a number (a float32 scalar), got a boolean (true)'],
    ['a null scalar', stepWith({ lr: null }), 'case 1: input lr must be a number (a float32 scalar), got null'],
    ['an array for a scalar', stepWith({ lr: [0.1] }), 'case 1: input lr must be a number (a float32 scalar), got an array'],
    ['a number for an array', stepWith({ x: 1 }), 'case 1: input x must be a 2-D float32 array of shape (N, D), got a number (1)'],
    ['a string element', stepWith({ x: [...rows(3), ['1'], ...rows(4)] }), 'case 1: input x[3][0] is a string ("1"); the elements of x are numbers'],
    ['a boolean element', stepWith({ b: [false] }), 'case 1: input b[0] is a boolean (false); the elements of b are numbers'],
    ['a null element', stepWith({ w: [[null]] }), 'case 1: input w[0][0] is null; the elements of w are numbers'],
    ['ragged rows', stepWith({ x: [[1], [2, 3], ...rows(6)] }), 'case 1: input x is not rectangular: x[0] has 1 entry but x[1] has 2'],
    ['a row that is a number', stepWith({ x: [[1], 2, ...rows(6)] }), 'case 1: input x must be a 2-D float32 array of shape (N, D), but x[1] is a number (2)'],
    ['rank 1 for rank 2', stepWith({ x: [1, 2, 3, 4, 5, 6, 7, 8] }), 'case 1: input x must be a 2-D float32 array of shape (N, D), but x[0] is a number (1)'],
    ['rank 3 for rank 2', stepWith({ x: [[[1]], ...rows(7)] }), 'case 1: input x must be a 2-D float32 array of shape (N, D), but x[0][0] is an array'],
    ['rank 2 for rank 1', stepWith({ b: [[0]] }), 'case 1: input b must be a 1-D float32 array of shape (K,), but b[0] is an array'],
    ['N = 7', stepWith({ x: rows(7), y: rows(7) }), 'case 1: input x has 7 rows (N); N must be one of 8, 16, 24, 32'],
    ['no rows', stepWith({ x: [], y: [] }), 'case 1: input x has 0 rows (N); N must be one of 8, 16, 24, 32'],
    ['D = 5', stepWith({ w: rows(5), x: rows(8, 5) }), 'case 1: input w has 5 rows (D); D must be between 1 and 4'],
    ['K = 0', stepWith({ w: [[]], b: [], y: rows(8, 0) }), 'case 1: input w has 0 columns (K); K must be between 1 and 3'],
    ['x has D = 3 columns but w has 2 rows', stepWith({ w: rows(2), x: rows(8, 3) }), 'case 1: input x has 3 columns (D) but w has 2 rows (D); the two must be equal'],
    ['b disagrees with w on K', stepWith({ b: [0, 0] }), 'case 1: input b has 2 entries (K) but w has 1 column (K); the two must be equal'],
    ['y has fewer rows than x', stepWith({ y: rows(16) }), 'case 1: input y has 16 rows (N) but x has 8 rows (N); the two must be equal'],
    ['lr = 0.5', stepWith({ lr: 0.5 }), 'case 1: input lr = 0.5 is out of range: 0 < lr <= 0.3 is required'],
    ['lr = 0', stepWith({ lr: 0 }), 'case 1: input lr = 0 is out of range: 0 < lr <= 0.3 is required'],
    ['a value beyond float32', stepWith({ x: [[1e39], ...rows(7)] }), 'case 1: input x[0][0] = 1e+39 is not a finite float32 (magnitude about 3.4e38 at most)'],
  ])('%s', (_, cases, message) => {
    expect(validateCases(dataParallel, cases)).toBe(message);
  });

  test('the failing case is named by its number, counted from 1 as in the report', () => {
    expect(validateCases(dataParallel, [step, step, ...stepWith({ x: rows(7), y: rows(7) })])).toBe('case 3: input x has 7 rows (N); N must be one of 8, 16, 24, 32');
  });

  test('H = 12 for the tensor-parallel MLP', () => {
    const { input } = tensorParallel.examples[0];
    const h12 = { ...input, w1: input.w1.map((r) => [...r, 0, 0, 0, 0]), b1: [...input.b1, 0, 0, 0, 0], w2: [...input.w2, [0], [0], [0], [0]] };
    expect(validateCases(tensorParallel, [{ input: h12 }])).toBe('case 1: input w1 has 12 columns (H); H must be one of 8, 16, 24, 32');
  });

  test('a fixed size and an element range (the ring: x of shape (8, N), values in [-10, 10])', () => {
    expect(validateCases(ring, [{ input: { x: rows(7) } }])).toBe('case 1: input x has 7 rows; x must have 8 rows');
    expect(validateCases(ring, [{ input: { x: [[0, 0], [0, 10.5], ...rows(6, 2)] } }])).toBe(
      'case 1: input x[1][1] = 10.5 is out of range: the elements of x must satisfy -10 <= x <= 10',
    );
    expect(validateCases(ring, [{ input: { x: [[-10], [10], ...rows(6)] } }])).toBeNull();
  });

  test('the largest float32 passes; what rounds to Infinity does not', () => {
    // An argument with no range of its own (every problem's declare one): only the dtype bounds it.
    const problem = { args: ['x'], inputs: { x: { dtype: 'float32', shape: ['N'] } }, dims: { N: { min: 1, max: 4 } }, outputs: { y: { dtype: 'float32', shape: ['N'] } } };
    const big = 3.4028234663852886e38;
    expect(validateCases(problem, [{ input: { x: [big, -big] } }])).toBeNull();
    expect(validateCases(problem, [{ input: { x: [3.41e38] } }])).toMatch(/^case 1: input x\[0\] = 3\.41e\+38 is not a finite float32/);
    expect(validateCases(dataParallel, stepWith({ x: [[1e19], ...rows(7)] }))).toMatch(/^case 1: input x\[0\]\[0\] = 10000000000000000000 is out of range: the elements of x must satisfy -10 <= x <= 10$/);
  });

  test("a problem's validate(input) checks relations after the shapes, and its message is the case's", () => {
    const problem = {
      args: ['lo', 'hi'],
      inputs: { lo: { dtype: 'float32', shape: ['N'] }, hi: { dtype: 'float32', shape: ['N'] } },
      dims: { N: { min: 1, max: 4 } },
      outputs: { width: { dtype: 'float32', shape: ['N'] } },
      validate: ({ lo, hi }) => {
        const i = lo.findIndex((v, j) => v > hi[j]);
        return i < 0 ? null : `input lo[${i}] = ${lo[i]} is above hi[${i}] = ${hi[i]}; lo must not exceed hi`;
      },
    };
    expect(validateCases(problem, [{ input: { lo: [0, 1], hi: [1, 2] } }, { input: { lo: [0, 3], hi: [1, 2] } }])).toBe('case 2: input lo[1] = 3 is above hi[1] = 2; lo must not exceed hi');
    // Shapes first: validate never sees arrays it cannot index.
    expect(validateCases(problem, [{ input: { lo: [0, 3], hi: [1] } }])).toBe('case 1: input hi has 1 entry (N) but lo has 2 entries (N); the two must be equal');
    expect(checkInput(problem, { lo: [0, 1, 2], hi: [1, 1, 2] })).toEqual({ dims: { N: 3 } });
  });

  test('dimensions of rank-3 inputs are named by axis', () => {
    const problem = { args: ['t'], inputs: { t: { dtype: 'float32', shape: [2, 'M', 'M'] } }, dims: { M: { oneOf: [1, 2] } }, outputs: {} };
    expect(validateCases(problem, [{ input: { t: [[[0, 0]], [[0, 0]]] } }])).toBe('case 1: input t has size 2 along axis 2 (M) but t has size 1 along axis 1 (M); the two must be equal');
    expect(validateCases(problem, [{ input: { t: [[[0, 0], [0, 0]], [[0, 0], [0, 0]]] } }])).toBeNull();
  });
});

describe('int32 and bool data, a derived output dimension', () => {
  // n: int32 lengths, one per row of x; mask: bool, as wide as the bucket (the smallest of 4, 8 >= L).
  const problem = {
    args: ['x', 'n'],
    inputs: { x: { dtype: 'float32', shape: ['B', 'L'] }, n: { dtype: 'int32', shape: ['B'], values: { ge: 1, le: 8 } } },
    dims: { B: { min: 1, max: 2 }, L: { min: 1, max: 8 } },
    derived: { W: { size: ({ L }) => (L <= 4 ? 4 : 8), what: 'the bucket' } },
    outputs: { mask: { dtype: 'bool', shape: ['B', 'W'] } },
  };
  const check = (input, expected) => validateCases(problem, [{ input, ...(expected && { expected }) }]);
  test.each([
    ['an int32 that is not an integer', { x: [[0]], n: [1.5] }, null, 'case 1: input n[0] = 1.5 is not an int32 (an integer from -2147483648 to 2147483647)'],
    ['an int32 out of its range', { x: [[0]], n: [0] }, null, 'case 1: input n[0] = 0 is out of range: the elements of n must satisfy 1 <= n <= 8'],
    ['a number for a bool', { x: [[0]], n: [1] }, { mask: [[1, 0, 0, 0]] }, 'case 1: expected mask[0][0] is a number (1); the elements of mask are true or false'],
    ['a bool for a number', { x: [[true]], n: [1] }, null, 'case 1: input x[0][0] is a boolean (true); the elements of x are numbers'],
    ['the derived width', { x: [[0, 0, 0, 0, 0]], n: [1] }, { mask: [[true, false, false, false]] }, 'case 1: expected mask has shape [1, 4]; for this input it must be (B, W) = [1, 8]'],
  ])('%s', (_, input, expected, message) => {
    expect(check(input, expected)).toBe(message);
  });
  test('valid int32 and bool data pass', () => {
    expect(check({ x: [[0, 0]], n: [2] }, { mask: [[true, true, false, false]] })).toBeNull();
  });
});

describe('expected outputs', () => {
  test.each([
    ['null', { expected: null }, 'case 1: expected must be an object of the outputs {w, b, loss}, got null; give every output or omit "expected" to have the reference compute them'],
    ['an output missing', { expected: { w: [[1.11]], b: [0.2] } }, 'case 1: expected lacks loss; give every output or omit "expected" to have the reference compute them'],
    ['an unknown output', { expected: { ...step.expected, grad: [0] } }, 'case 1: expected has an unknown output "grad"; the outputs are w, b, loss'],
    ['the wrong shape', { expected: { ...step.expected, w: [[1.11], [0]] } }, 'case 1: expected w has shape [2, 1]; for this input it must be (D, K) = [1, 1]'],
    ['the wrong rank', { expected: { ...step.expected, b: 0.2 } }, 'case 1: expected b must be a 1-D float32 array of shape (K,), got a number (0.2)'],
    ['an array for a scalar', { expected: { ...step.expected, loss: [121] } }, 'case 1: expected loss must be a number (a float32 scalar), got an array'],
    ['ragged', { expected: { ...step.expected, w: [[1.11, 0], [0]] } }, 'case 1: expected w is not rectangular: w[0] has 2 entries but w[1] has 1'],
    ['a string', { expected: { ...step.expected, w: [['1.11']] } }, 'case 1: expected w[0][0] is a string ("1.11"); the elements of w are numbers'],
    ['NaN as a string', { expected: { ...step.expected, loss: 'NaN' } }, 'case 1: expected loss must be a number (a float32 scalar), got a string ("NaN")'],
    ['beyond float32', { expected: { ...step.expected, loss: 1e39 } }, 'case 1: expected loss = 1e+39 is not a finite float32 (magnitude about 3.4e38 at most)'],
  ])('%s', (_, fields, message) => {
    expect(validateCases(dataParallel, [{ input: step.input, ...fields }])).toBe(message);
  });

  test('may be omitted (the reference computes it)', () => {
    expect(validateCases(dataParallel, [{ input: step.input }])).toBeNull();
  });

  test("the tensor-parallel MLP's hidden must be (B, H)", () => {
    const { input, expected } = tensorParallel.examples[0];
    expect(validateCases(tensorParallel, [{ input, expected: { ...expected, hidden: [expected.hidden[0].slice(1)] } }])).toBe(
      'case 1: expected hidden has shape [1, 7]; for this input it must be (B, H) = [1, 8]',
    );
  });
});

describe.each(PROBLEM_IDS)('%s', (id) => {
  test('its examples are valid cases', async () => {
    const problem = await loadProblem(id);
    expect(validateCases(problem, problem.examples)).toBeNull();
  });

  test('200 generated cases, with the reference outputs as expected, are valid', async () => {
    const problem = await loadProblem(id);
    const rng = makeRng(1234);
    const cases = Array.from({ length: 200 }, () => {
      const input = problem.generate(rng);
      return { input, expected: problem.reference(input) };
    });
    // The reference's outputs having the declared shapes is what lets the validator check expected ones.
    expect(validateCases(problem, cases)).toBeNull();
  });
});
