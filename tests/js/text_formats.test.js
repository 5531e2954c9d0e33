// The text ShardLab writes numbers and arrays in, against the programs whose
// text it copies, recorded (tests/js/text_formats_reference.json, by
// scripts/record_text_formats.py): CPython's format(value, spec) for
// jax.debug.print's format specs, and numpy's str and repr of arrays (JAX's
// Array repr is numpy's with 'Array' for 'array'). Exact: the same characters.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { arrayRepr, arrayStr, numpyRepr } from '../../web/lib/api/core/array_text.js';
import { formatNumber } from '../../web/lib/api/core/python_format.js';

const reference = JSON.parse(readFileSync(new URL('./text_formats_reference.json', import.meta.url), 'utf8'));
const number = (v, negative) => (v === 'nan' ? NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v === 0 && negative ? -0 : v);

test(`format(value, spec) writes what ${reference.source.split(';')[0]} writes, errors included`, () => {
  const wrong = [];
  for (const c of reference.numbers) {
    let got;
    try {
      got = formatNumber(number(c.value, c.negative), c.spec, c.kind);
    } catch (e) {
      got = { error: `${e.name}: ${e.message}` };
    }
    const want = c.text;
    const same = typeof want === 'string' ? got === want : got.error?.split(':')[0] === want.error.split(':')[0];
    if (!same) wrong.push({ ...c, got });
  }
  expect(wrong).toEqual([]);
  expect(reference.numbers.length).toBeGreaterThan(600);
});

test('str and repr of arrays are numpy\'s, summarized, wrapped and padded alike', () => {
  const wrong = [];
  for (const a of reference.arrays) {
    const values = a.values.map((v) => number(v, false));
    const str = arrayStr(values, a.shape, a.dtype);
    // JAX's repr is numpy's with 'Array(' (as wide as 'array(', so wrapped alike) and its dtype always named.
    const repr = ['float64', 'int64', 'bool'].includes(a.dtype) ? numpyRepr(values, a.shape, a.dtype) : arrayRepr(values, a.shape, a.dtype).replace(/^Array\(/, 'array(');
    if (str !== a.str) wrong.push({ shape: a.shape, dtype: a.dtype, want: a.str, got: str });
    if (repr !== a.repr) wrong.push({ shape: a.shape, dtype: a.dtype, want: a.repr, got: repr });
  }
  expect(wrong).toEqual([]);
});
