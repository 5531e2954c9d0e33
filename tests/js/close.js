// Elementwise closeness for the JS tests: nested lists (or numbers) `got`
// and `want` of the same length, |got - want| <= tol * max(1, |want|).
import { expect } from 'vitest';

/** Expects `got` close to the reference `want` within `tol` relative (1e-5 by default); `what` names the check. */
export function close(got, want, what = '', tol = 1e-5) {
  const g = [got].flat(Infinity);
  const w = [want].flat(Infinity);
  expect(g.length, what).toBe(w.length);
  g.forEach((v, i) => expect(Math.abs(v - w[i]), `${what} [${i}] ${v} vs ${w[i]}`).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(w[i]))));
}
