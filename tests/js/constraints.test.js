// Every problem's constraints as data (web/checker/constraints.js): well
// formed, read the same as its statement, and turned into the one-line text
// the page shows.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { describeConstraints, DTYPES, inRange, rangeText } from '../../web/checker/constraints.js';
import { loadProblem, PROBLEM_IDS } from '../../web/checker/problems.js';

const problems = await Promise.all(PROBLEM_IDS.map((id) => loadProblem(id)));
const named = (shape) => shape.filter((d) => typeof d === 'string');

describe.each(problems.map((p) => [p.id, p]))('%s', (_, problem) => {
  test('its constraint data is well formed', () => {
    // The topics the page groups the list by.
    expect(['Sharding', 'Autodiff', 'Transformations', 'Control flow']).toContain(problem.topic);
    expect(problem.args).toEqual(Object.keys(problem.inputs));
    const used = new Set(Object.values(problem.inputs).flatMap((a) => named(a.shape)));
    // Every dimension is declared, and every declared one sized by some input.
    expect([...used].sort()).toEqual(Object.keys(problem.dims).sort());
    const derived = Object.keys(problem.derived ?? {});
    const entries = (o, output) => Object.entries(o).map(([name, a]) => [name, a, output]);
    for (const [name, a, output] of [...entries(problem.inputs, false), ...entries(problem.outputs, true)]) {
      expect(Object.keys(DTYPES), name).toContain(a.dtype);
      expect(Array.isArray(a.shape), name).toBe(true);
      // Outputs may also use dimensions derived from the inputs' (derived: {name: {size(dims), what}}).
      const known = (d) => used.has(d) || (output && derived.includes(d));
      for (const d of a.shape) expect(typeof d === 'string' ? known(d) : Number.isInteger(d) && d > 0, `${name}: ${d}`).toBe(true);
    }
    for (const d of derived) expect(typeof problem.derived[d].size === 'function' && typeof problem.derived[d].what === 'string', d).toBe(true);
    for (const [d, rule] of Object.entries(problem.dims)) {
      const ok = rule.oneOf ? rule.oneOf.every((n) => Number.isInteger(n) && n > 0) : Number.isInteger(rule.min) && rule.min >= 1 && rule.max >= rule.min;
      expect(ok, d).toBe(true);
    }
  });

  test("its statement's Constraints section states every rule of the data", () => {
    const text = readFileSync(problem.statementUrl, 'utf8');
    const section = text.slice(text.indexOf('## Constraints'));
    expect(section.length).toBeLessThan(text.length);
    for (const [d, rule] of Object.entries(problem.dims)) {
      expect(section).toContain(rule.oneOf ? `${d} \\in \\{${rule.oneOf.join(', ')}\\}` : `${rule.min} \\le ${d} \\le ${rule.max}`);
    }
    for (const [name, a] of Object.entries(problem.inputs)) {
      const r = a.values;
      if (!r) continue;
      // Arrays' ranges as intervals ($[-10, 10]$), scalars' as inequalities ($0 < \mathrm{lr} \le 0.3$).
      if (a.shape.length) expect(section, name).toContain(`values in $${'gt' in r ? '(' : '['}${r.gt ?? r.ge}, ${r.lt ?? r.le}${'lt' in r ? ')' : ']'}$`);
      else {
        const lower = 'gt' in r ? `${r.gt} < ` : 'ge' in r ? `${r.ge} \\le ` : '';
        const upper = 'lt' in r ? ` < ${r.lt}` : 'le' in r ? ` \\le ${r.le}` : '';
        // TeX needs \_ for an underscore in a name (max\_norm).
        expect(section, name).toContain(`${lower}\\mathrm{${name.replaceAll('_', '\\_')}}${upper}`);
      }
    }
    for (const a of Object.values(problem.inputs)) expect(section).toContain(a.dtype);
    if (Object.values(problem.inputs).some((a) => !a.values)) expect(section).toContain('finite');
  });
});

test("no statement's inline math spans a line (the page renders $...$ within one line)", () => {
  for (const p of problems) {
    for (const file of ['statement.md', 'statement.js.md']) {
      const text = readFileSync(new URL(file, p.statementUrl), 'utf8').replace(/\$\$[\s\S]+?\$\$/g, '').replace(/`[^`]*`/g, '');
      const odd = text.split('\n').findIndex((line) => (line.match(/\$/g) ?? []).length % 2 === 1);
      expect(odd, `${p.id}/${file} line ${odd + 1}`).toBe(-1);
    }
  }
});

test('the one-line constraints text of the problems, derived from the data', () => {
  expect(Object.fromEntries(problems.map((p) => [p.id, p.constraints]))).toMatchObject({
    'device-mesh-named-sharding': 'float32 x (R, C); R in {8, 16}; C in {4, 8, 12}; values in [-100, 100]',
    'data-parallel-step': 'float32 w (D, K), b (K,), x (N, D), y (N, K), lr (a scalar); N in {8, 16, 24, 32}; 1 <= D <= 4; 1 <= K <= 3; w in [-10, 10]; b in [-10, 10]; x in [-10, 10]; y in [-20, 20]; 0 < lr <= 0.3',
    'tensor-parallel-mlp': 'float32 x (B, D), w1 (D, H), b1 (H,), w2 (H, O), b2 (O,); 1 <= B <= 4; 1 <= D <= 5; H in {8, 16, 24, 32}; 1 <= O <= 4; values in [-10, 10]',
    'ring-allreduce-ppermute': 'float32 x (8, N); 1 <= N <= 16; values in [-10, 10]',
    'ema-scan': 'float32 xs (T, D), decay (a scalar); 2 <= T <= 64; 1 <= D <= 8; xs in [-10, 10]; 0 < decay < 1',
  });
});

test('every float argument of every problem declares its range (a value in range gives a float32 result the float64 reference agrees with)', () => {
  for (const p of problems) {
    for (const [name, a] of Object.entries(p.inputs)) expect(a.values, `${p.id}: ${name}`).toBeDefined();
  }
});

test('a float32 argument is held to its range as float32 holds it: float32 0.3 written out in full satisfies lr <= 0.3', () => {
  expect(inRange({ gt: 0, le: 0.3 }, 0.30000001192092896, 'float32')).toBe(true);
  expect(inRange({ gt: 0, le: 0.3 }, 0.30000001192092896)).toBe(false);
  expect(inRange({ gt: 0, le: 0.3 }, 0.3000001, 'float32')).toBe(false);
  expect(inRange({ ge: 1, le: 64 }, 64, 'int32')).toBe(true);
});

test('ranges: open and closed ends, one-sided bounds, per-argument ranges in the text', () => {
  expect([0, 1e-9, 0.3, 0.30001].map((v) => inRange({ gt: 0, le: 0.3 }, v))).toEqual([false, true, true, false]);
  expect([-1, 1, 1.5].map((v) => inRange({ ge: -1, lt: 1.5 }, v))).toEqual([true, true, false]);
  expect(inRange({}, -1e30)).toBe(true);
  expect(rangeText('lr', { gt: 0, le: 0.3 })).toBe('0 < lr <= 0.3');
  expect(rangeText('t', { ge: 1 })).toBe('1 <= t');
  const text = describeConstraints({
    inputs: {
      a: { dtype: 'float32', shape: ['N'], values: { gt: 0, lt: 1 } },
      b: { dtype: 'float32', shape: [4, 'N'], values: { ge: -2, le: 2 } },
      t: { dtype: 'float32', shape: [], values: { ge: 1 } },
    },
    dims: { N: { min: 2, max: 6 } },
  });
  expect(text).toBe('float32 a (N,), b (4, N), t (a scalar); 2 <= N <= 6; a in (0, 1); b in [-2, 2]; 1 <= t');
});
