// The NaN-ignoring reductions against loops over the elements that are not
// NaN (float64, then rounded), per axis and whole, with where masks, the
// all-NaN cases (NaN, or -1 for the arg ones), and ptp and average.
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { close } from './close.js';

const { np } = sl;
beforeAll(() => sl.init());

const X = [[3, NaN, 4, 5], [NaN, -2, NaN, 7], [2, 1, 6, NaN]];
const rows = (f) => X.map((r) => f(r.filter((v) => !Number.isNaN(v))));
const cols = (f) => X[0].map((_, j) => f(X.map((r) => r[j]).filter((v) => !Number.isNaN(v))));
const mean = (vs) => vs.reduce((a, b) => a + b, 0) / vs.length;
const variance = (vs, ddof = 0) => vs.reduce((a, v) => a + (v - mean(vs)) ** 2, 0) / (vs.length - ddof);

test('nansum, nanprod, nanmax, nanmin, nanmean, nanvar, nanstd over rows, columns and all', async () => {
  const x = sl.array(X);
  const all = X.flat().filter((v) => !Number.isNaN(v));
  const cases = [
    ['nansum', (vs) => vs.reduce((a, b) => a + b, 0)],
    ['nanprod', (vs) => vs.reduce((a, b) => a * b, 1)],
    ['nanmax', (vs) => Math.max(...vs)],
    ['nanmin', (vs) => Math.min(...vs)],
    ['nanmean', mean],
    ['nanvar', (vs) => variance(vs)],
    ['nanstd', (vs) => Math.sqrt(variance(vs))],
  ];
  for (const [name, f] of cases) {
    close(await np[name](x, { axis: 1 }).tolist(), rows(f), `${name} rows`, 1e-5);
    close(await np[name](x, { axis: 0 }).tolist(), cols(f), `${name} columns`, 1e-5);
    close(await np[name](x).item(), f(all), `${name} all`, 1e-5);
  }
  close(await np.nanvar(x, { axis: 1, ddof: 1 }).tolist(), rows((vs) => variance(vs, 1)), 'nanvar ddof 1', 1e-5);
  expect(np.nansum(x, { axis: 1, keepdims: true }).shape).toEqual([3, 1]);
});

test('where masks, and rows of NaN only: NaN for max, min and mean, 0 for sum, -1 for argmax', async () => {
  const x = sl.array([[NaN, NaN], [1, NaN]]);
  const [mx, mn, me, su] = await Promise.all([np.nanmax(x, { axis: 1 }), np.nanmin(x, { axis: 1 }), np.nanmean(x, { axis: 1 }), np.nansum(x, { axis: 1 })].map((a) => a.tolist()));
  expect([mx[0], mn[0], me[0]].every(Number.isNaN)).toBe(true);
  expect([mx[1], mn[1], me[1], su]).toEqual([1, 1, 1, [0, 1]]);
  expect(await np.nanargmax(x, { axis: 1 }).tolist()).toEqual([-1, 0]);
  expect(await np.nanargmin(sl.array([NaN, 3, 5, 4, 2])).item()).toBe(4);
  const mask = sl.array([[true, false, true, false], [false, false, true, true], [true, true, true, false]], { dtype: 'bool' });
  const masked = X.map((r, i) => r.filter((v, j) => [[1, 0, 1, 0], [0, 0, 1, 1], [1, 1, 1, 0]][i][j] && !Number.isNaN(v)));
  close(await np.nansum(sl.array(X), { axis: 1, where: mask }).tolist(), masked.map((vs) => vs.reduce((a, b) => a + b, 0)), 'nansum where', 1e-6);
  close(await np.nanmean(sl.array(X), { axis: 1, where: mask }).tolist(), masked.map(mean), 'nanmean where', 1e-6);
  close(await np.nanmax(sl.array(X), { axis: 1, where: mask, initial: -100 }).tolist(), masked.map((vs) => Math.max(-100, ...vs)), 'nanmax where', 1e-6);
});

test('nancumsum and nancumprod count NaN as 0 and 1; ptp; average with and without weights', async () => {
  const y = sl.array([[1, 2, NaN], [4, NaN, 6]]);
  expect(await np.nancumsum(y).tolist()).toEqual([1, 3, 3, 7, 7, 13]);
  expect(await np.nancumprod(y, { axis: 1 }).tolist()).toEqual([[1, 2, 2], [4, 4, 24]]);
  const z = sl.array([[1, 3, 5, 2], [4, 6, 8, 1]], { dtype: 'int32' });
  expect(await np.ptp(z, { axis: 1 }).tolist()).toEqual([4, 7]);
  close(await np.average(z, { axis: 1, weights: sl.array([1, 2, 3, 4]) }).tolist(), [(1 + 6 + 15 + 8) / 10, (4 + 12 + 24 + 4) / 10], 'average', 1e-6);
  const [avg, total] = np.average(z, { returned: true });
  expect([await avg.item(), await total.item()]).toEqual([30 / 8, 8]);
});
