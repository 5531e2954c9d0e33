// The two figures every benchmark row reports.

/** The min and the median of a list of samples. */
export function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0], median: s[Math.floor(s.length / 2)] };
}
