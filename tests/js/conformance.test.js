// The conformance suite (scripts/conformance/run.mjs): JAX's docstring
// examples run on ShardLab's jax. Its totals per module are printed; a fact
// that matched JAX when last recorded and no longer does fails the test, and
// so do docs/conformance.md and docs/python.md's totals when they are not this run's (record with
// `node scripts/conformance/run.mjs --record` after a change that moves them).
import { readFileSync } from 'node:fs';
import { beforeAll, expect, test } from 'vitest';
import { factsOf, PASSING, PYTHON_DOC, REPORT, report, runDocstrings, totals, totalsTable, withTotals } from '../../scripts/conformance/run.mjs';

let records;
beforeAll(async () => {
  records = await runDocstrings();
  console.log(`JAX's docstring examples on ShardLab's jax:\n${totalsTable(totals(records))}`);
}, 300_000);

test('every fact recorded as matching JAX still matches', () => {
  const now = new Map(factsOf(records).map((f) => [f.id, f]));
  const lost = JSON.parse(readFileSync(PASSING, 'utf8')).filter((id) => !now.get(id)?.passed);
  expect(lost.map((id) => `${id}: ${now.get(id)?.got ?? 'no longer a fact (not exposed, or gone from the docstrings)'}`)).toEqual([]);
});

// Words that only JavaScript says: a Python user must never read them in an error.
const JS_WORDS = /is not a function|Invalid array length|\bundefined\b|\bnull\b|\bsl\.[a-z]|Cannot read propert|JsProxy|JsException|TypedArray|Float32Array|Int32Array|=>|\[object /;

test('no error ShardLab\'s jax raises in the suite speaks JavaScript', () => {
  const raised = factsOf(records).filter((f) => !f.passed && /^\w+(Error|Exception|Warning)\b/.test(f.got ?? ''));
  expect(raised.length).toBeGreaterThan(10);
  expect(raised.filter((f) => JS_WORDS.test(f.got)).map((f) => `${f.id}: ${f.got}`)).toEqual([]);
});

test("docs/conformance.md is this run's report (its totals and every difference), and docs/python.md states its totals", () => {
  expect(readFileSync(REPORT, 'utf8')).toBe(report(records));
  const doc = readFileSync(PYTHON_DOC, 'utf8');
  expect(doc).toBe(withTotals(doc, records));
});

test("the comparison is JAX doctests': whitespace normalized, a float matching to the precision it is written with, an exception by its class, nothing else", async () => {
  const example = (source, want) => ({ source: `${source}\n`, want: `${want}\n`, line: 0, options: [] });
  // An expected exception, its message's detail ignored as JAX's docstrings ask (+IGNORE_EXCEPTION_DETAIL): only its class must match.
  const raises = (source, message) => ({ ...example(source, `Traceback (most recent call last):\n  ...\n${message}`), exc_msg: `${message}\n`, options: ['+IGNORE_EXCEPTION_DETAIL'] });
  const facts = [
    [example('print(0.30000001)', '0.3'), true],
    [example('print(0.36)', '0.3'), false],
    [example('print(1.0001e-4)', '1.0e-04'), true],
    [example('print([1.0, 2.0])', '[1.0,  2.0]'), true],
    [example("print('x')", 'y'), false],
    [example('print(3)', '3.0'), false],
    [example('jnp.add(1.5, 2)', 'Array(3.5, dtype=float32, weak_type=True)'), true],
    [example('jnp.add(1.5, 2)', 'Array(3.5, dtype=float32)'), false],
    [raises('jnp.squeeze(jnp.zeros((3, 1)), axis=0)', 'ValueError: other words'), true],
    [raises('jnp.squeeze(jnp.zeros((3, 1)), axis=0)', 'TypeError: other words'), false],
  ];
  const text = JSON.stringify(facts.map(([e], i) => ({ name: 'jax.numpy.add', defined: 'add', source: 'test', jax: '0', examples: [{ ...e, line: i }] })));
  const got = (await runDocstrings(text)).map((r) => r.examples[0].passed);
  expect(got).toEqual(facts.map(([, passes]) => passes));
});
