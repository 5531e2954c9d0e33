// The conformance suite (scripts/conformance/run.mjs): JAX's docstring
// examples, and the facts of JAX's tests and docs, run on ShardLab's jax. Its
// totals are printed; a fact that matched JAX when last recorded and no longer
// does fails the test, and so do docs/conformance.md and docs/python.md's
// totals when they are not this run's (record with
// `node scripts/conformance/run.mjs --record` after a change that moves them).
import { readFileSync } from 'node:fs';
import { beforeAll, expect, test } from 'vitest';
import { factsOf, PASSING, PYTHON_DOC, REPORT, report, runDocstrings, runSources, sourceFiles, SOURCES_PASSING, sourcesTable, totals, totalsTable, withTotals } from '../../scripts/conformance/run.mjs';

let records;
let sources;
beforeAll(async () => {
  records = await runDocstrings();
  sources = await runSources();
  console.log(`JAX's docstring examples on ShardLab's jax:\n${totalsTable(totals(records))}\n\n${sourcesTable(sources)}`);
}, 300_000);

// The ids of `record` (a file of passing ids) that do not pass in `facts` now, each with what it gave.
function lost(record, facts) {
  const now = new Map(facts.map((f) => [f.id, f]));
  return JSON.parse(readFileSync(record, 'utf8'))
    .filter((id) => !now.get(id)?.passed)
    .map((id) => `${id}: ${now.get(id)?.got ?? 'no longer a fact'}`);
}

test('every docstring fact recorded as matching JAX still matches', () => {
  expect(lost(PASSING, factsOf(records))).toEqual([]);
});

test("every fact of JAX's tests and docs recorded as matching still matches; each has an id of its own and examples", () => {
  expect(lost(SOURCES_PASSING, sources)).toEqual([]);
  const ids = sources.map((f) => f.id);
  expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  expect(sources.length).toBeGreaterThan(100);
});

test("a fact of JAX's tests passes only when every example of it does; each runs in a namespace of its own", async () => {
  const file = [
    '# fact: tests/a.py:1 both hold',
    '>>> x = jnp.arange(3)',
    '>>> int(x.sum())',
    '3',
    '',
    '# fact: tests/a.py:2 the second differs',
    '>>> int(jnp.arange(3).sum())',
    '3',
    '>>> np.testing.assert_allclose(jnp.ones(2), [1, 2])',
    '',
    '# fact: tests/a.py:3 x is not left from the first',
    '>>> x',
    'Traceback (most recent call last):',
    "NameError: name 'x' is not defined",
    '',
  ].join('\n');
  const got = await runSources({ 'a.txt': file });
  expect(got.map((f) => [f.id, f.passed])).toEqual([
    ['tests/a.py:1 both hold', true],
    ['tests/a.py:2 the second differs', false],
    ['tests/a.py:3 x is not left from the first', true],
  ]);
  expect(got[1].got).toMatch(/AssertionError/);
  expect(Object.keys(sourceFiles()).length).toBeGreaterThan(3);
});

// Words that only JavaScript says: a Python user must never read them in an error.
const JS_WORDS = /is not a function|Invalid array length|\bundefined\b|\bnull\b|\bsl\.[a-z]|Cannot read propert|JsProxy|JsException|TypedArray|Float32Array|Int32Array|=>|\[object /;

test('no error ShardLab\'s jax raises in the suite speaks JavaScript', () => {
  const raised = [...factsOf(records), ...sources].filter((f) => !f.passed && /^\w+(Error|Exception|Warning)\b/.test(f.got ?? ''));
  expect(raised.length).toBeGreaterThan(10);
  expect(raised.filter((f) => JS_WORDS.test(f.got)).map((f) => `${f.id}: ${f.got}`)).toEqual([]);
});

test("docs/conformance.md is this run's report (its totals and every difference), and docs/python.md states its totals", () => {
  expect(readFileSync(REPORT, 'utf8')).toBe(report(records, sources));
  const doc = readFileSync(PYTHON_DOC, 'utf8');
  expect(doc).toBe(withTotals(doc, records, sources));
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
