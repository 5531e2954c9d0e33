// The pure parts of the page's case views (web/app/case_values.js) and the
// entry comparison the judge and the page share (web/checker/compare.js):
// folding long axes, writing entries, counting differing entries, and an
// input written as editable JSON that parses back to itself.
import { expect, test } from 'vitest';
import { countDiffs, entryAt, foldAxis, formatEntry, inputJson, isFolded, typeLabel } from '../../web/app/case_values.js';
import { entryMatcher, shapeOf } from '../../web/checker/compare.js';

test('a short axis shows whole; a long one its first and last 4 with the count hidden between', () => {
  expect(foldAxis(3)).toEqual([0, 1, 2]);
  expect(foldAxis(12)).toHaveLength(12);
  expect(foldAxis(16)).toEqual([0, 1, 2, 3, { gap: 8 }, 12, 13, 14, 15]);
  expect(foldAxis(1024)).toEqual([0, 1, 2, 3, { gap: 1016 }, 1020, 1021, 1022, 1023]);
  expect(foldAxis(1024, { at: Infinity })).toHaveLength(1024);
  expect(foldAxis(5, { at: 4, edge: 2 })).toEqual([0, 1, { gap: 1 }, 3, 4]);
});

test('an array folds when an axis is longer than it shows: the last two by 12, leading (slice) axes by 4', () => {
  expect(isFolded([])).toBe(false);
  expect(isFolded([12, 12])).toBe(false);
  expect(isFolded([256, 1024])).toBe(true);
  expect(isFolded([13])).toBe(true);
  expect(isFolded([4, 8, 8])).toBe(false);
  expect(isFolded([5, 8, 8])).toBe(true);
});

test('entries read as a JAX user writes them', () => {
  expect(formatEntry(0.1 + 0.2, 'float32')).toBe('0.3');
  expect(formatEntry(1.23456789, 'float32')).toBe('1.23457');
  expect(formatEntry(-2.5e-7, 'float32')).toBe('-2.5e-7');
  expect(formatEntry(NaN, 'float32')).toBe('nan');
  expect(formatEntry(-Infinity, 'float32')).toBe('-inf');
  expect(formatEntry(7, 'int32')).toBe('7');
  expect(formatEntry(1, 'bool')).toBe('true');
  expect(formatEntry(false, 'bool')).toBe('false');
  expect(typeLabel('float32', [16, 2])).toBe('f32[16,2]');
  expect(typeLabel('int32', [])).toBe('i32[]');
  expect(typeLabel('bool', [4, 64])).toBe('bool[4,64]');
});

test('differing entries: within the tolerance for float32, exact for int32 and bool, NaN never matches', () => {
  const problem = { tolerance: { atol: 1e-3, rtol: 0 } };
  const f = entryMatcher(problem, 'float32');
  expect(f(1.0005, 1)).toBe(true);
  expect(f(1.002, 1)).toBe(false);
  expect(f(NaN, 1)).toBe(false);
  expect(entryMatcher(problem, 'int32')(3, 3)).toBe(true);
  expect(entryMatcher(problem, 'int32')(3.0005, 3)).toBe(false);
  expect(entryMatcher(problem, 'bool')(1, true)).toBe(true);
  expect(entryMatcher(problem, 'bool')(0, true)).toBe(false);
  expect(entryMatcher({}, 'float32')(1 + 3e-4, 1)).toBe(false); // the default tolerance: 1e-4 + 1e-4·|e|
  const expected = [[1, 2], [3, 4]];
  expect(countDiffs(expected, [[1, 2.5], [NaN, 4]], f)).toBe(2);
  expect(countDiffs(5, 5, f)).toBe(0);
  expect(entryAt(expected, [1, 0])).toBe(3);
  expect(entryAt(5, [])).toBe(5);
  expect(shapeOf(expected)).toEqual([2, 2]);
  expect(shapeOf(0.5)).toEqual([]);
});

test('an input is written with each innermost array on one line and parses back to itself', () => {
  const input = { w: [[0.1], [0.3]], b: [0], lr: 0.1, mask: [true, false], e: [] };
  const text = inputJson(input);
  expect(JSON.parse(text)).toEqual(input);
  expect(text).toBe('{\n  "w": [\n    [0.1],\n    [0.3]\n  ],\n  "b": [0],\n  "lr": 0.1,\n  "mask": [true, false],\n  "e": []\n}');
  expect(inputJson({})).toBe('{}');
});
