// The problems' known solutions as the tests read them: each problem's
// references (problems/<id>/solution.py, .mjs) and its other known
// solutions (tests/solutions/<id>/<name>.py, .mjs), each of which says in
// its first lines how it must be judged:
//
//   # passes                                 (a correct solution written another way:
//                                            every case and requirement passes)
//   # fails: <requirement id>, ..., cases   (exactly these requirements fail;
//                                            "cases": some case fails too)
//   # message: <regular expression>          (optional: a failing message matches)
//
// (// in JavaScript). Every problem has at least two wrong ones of each language.
import { readdirSync, readFileSync } from 'node:fs';
import { expect } from 'vitest';

const root = new URL('../../', import.meta.url);

/** The known solutions of problem `id` in `lang` ('python' or 'javascript'): [{name, file, source, passes, fails, cases, message}]. */
export function knownSolutions(id, lang) {
  const ext = lang === 'python' ? '.py' : '.mjs';
  const dir = new URL(`tests/solutions/${id}/`, root);
  let files = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith(ext)).sort();
  } catch {
    return [];
  }
  return files.map((f) => {
    const file = new URL(f, dir);
    const source = readFileSync(file, 'utf8');
    const field = (key) => source.match(new RegExp(`^(?:#|//) ${key}: (.*)$`, 'm'))?.[1].trim();
    const passes = new RegExp('^(?:#|//) passes$', 'm').test(source);
    const listed = (field('fails') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    if (passes === listed.length > 0) throw new Error(`${f} must say how it is judged: a "passes" line or a "fails:" line`);
    const message = field('message');
    return { name: f, file, source, passes, fails: listed.filter((s) => s !== 'cases').sort(), cases: listed.includes('cases'), message: message && new RegExp(message) };
  });
}

/** The known-wrong solutions of problem `id` in `lang` (knownSolutions that fail). */
export const wrongSolutions = (id, lang) => knownSolutions(id, lang).filter((w) => !w.passes);

/** What failed in a checker report: {requirements (ids, sorted), cases (how many), messages}. */
export function failures(report) {
  const reqs = report.requirements.filter((r) => !r.passed);
  const cases = report.cases.filter((c) => !c.passed);
  return { requirements: reqs.map((r) => r.id).sort(), cases: cases.length, messages: [...reqs, ...cases].map((x) => x.message) };
}

/** Asserts that `report` is as the known solution `w` says: all passed, or exactly its requirements failed, cases or not, a message matching. */
export function expectAsDeclared(report, w) {
  const f = failures(report);
  if (w.passes) {
    expect(f.messages).toEqual([]);
    return;
  }
  expect(f.requirements).toEqual(w.fails);
  expect(f.cases > 0).toBe(w.cases);
  if (w.message) expect(f.messages.some((m) => w.message.test(m)), f.messages.join('\n')).toBe(true);
}
