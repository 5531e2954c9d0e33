// The figures every benchmark row reports.

/** The min, the median and the max of a list of samples (the best is the min of times, the max of rates). */
export function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0], median: s[Math.floor(s.length / 2)], max: s[s.length - 1] };
}

/**
 * Samples gathered over interleaved rounds, per row: add(row, x) files the
 * sample x under the row ({group, impl, case, size, unit}); rows() gives each
 * row, in the order first added, with the min, median and max of its samples.
 */
export class RowSamples {
  constructor() {
    this._rows = new Map(); // JSON of the row -> {row, xs}
  }

  add(row, x) {
    const key = JSON.stringify(row);
    if (!this._rows.has(key)) this._rows.set(key, { row, xs: [] });
    this._rows.get(key).xs.push(x);
  }

  rows() {
    return [...this._rows.values()].map(({ row, xs }) => ({ ...row, ...stats(xs) }));
  }
}

/**
 * How much a bench run measures: 'full' (npm run bench), 'quick' (--quick:
 * fewer rounds) or 'smoke' (--smoke: every row once, the shortest warm-ups,
 * to show in `npm test` that every row still runs).
 */
export const LEVELS = ['full', 'quick', 'smoke'];

/** The level's value of a setting: `full`, `quick` or `smoke` (1 by default: once). */
export const atLevel = (level, { full, quick = full, smoke = 1 }) => ({ full, quick, smoke })[level] ?? full;
