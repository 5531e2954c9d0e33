// The CLI's --json report: the engine's report without what only the page
// reads, as one line of JSON in which no number is lost.

// What only the page reads (the traced program, the case values, the timeline).
const PAGE_ONLY = ['jaxpr', 'jaxprBodies', 'program', 'outTree', 'caseValues', 'timeline'];

// JSON has no NaN or infinities (JSON.stringify writes null): they are written as the strings "nan", "inf" and "-inf".
const nonFinite = (key, v) => (typeof v !== 'number' || Number.isFinite(v) ? v : Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf');

/** `report` as the CLI's JSON: {problem, seed, passed, timeMs, isolation, cases, requirements}, isolation as its kind ('bubblewrap' or 'none') and, when none, why. */
export function jsonReport(report) {
  const out = Object.fromEntries(Object.entries(report).filter(([k]) => !PAGE_ONLY.includes(k)));
  const { kind, why } = report.isolation;
  out.isolation = kind;
  if (why) out.isolationNote = why;
  return JSON.stringify(out, nonFinite);
}
