// The reference the random tests check jax.random against, written from
// the algorithms' definitions (Random123's threefry-2x32, JAX's
// partitionable bits, uniform and randint) and float64 erfc / erfinv.

export const rotl = (x, r) => ((x << r) | (x >>> (32 - r))) >>> 0;
// Threefry-2x32, 20 rounds (Random123): key schedule k1, k2, k1^k2^0x1BD11BDA, injected every 4 rounds.
export function threefry(k1, k2, x1, x2) {
  const ks = [k1 >>> 0, k2 >>> 0, (k1 ^ k2 ^ 0x1bd11bda) >>> 0];
  const rot = [[13, 15, 26, 6], [17, 29, 16, 24]];
  let a = (x1 + ks[0]) >>> 0;
  let b = (x2 + ks[1]) >>> 0;
  for (let g = 0; g < 5; g++) {
    for (const r of rot[g % 2]) {
      a = (a + b) >>> 0;
      b = rotl(b, r) ^ a;
      b >>>= 0;
    }
    a = (a + ks[(g + 1) % 3]) >>> 0;
    b = (b + ks[(g + 2) % 3] + g + 1) >>> 0;
  }
  return [a, b];
}
export const refBits = ([k1, k2], n) => Array.from({ length: n }, (_, i) => {
  const [a, b] = threefry(k1, k2, 0, i);
  return (a ^ b) >>> 0;
});
export const refSplit = ([k1, k2], n) => Array.from({ length: n }, (_, i) => threefry(k1, k2, 0, i));
export const f32 = Math.fround;
export const asFloat = (u) => new Float32Array(Uint32Array.of(u).buffer)[0];
export const refUniform = (key, n, lo = 0, hi = 1) =>
  refBits(key, n).map((b) => Math.max(f32(lo), f32(f32(f32(asFloat((b >>> 9) | 0x3f800000) - 1) * f32(f32(hi) - f32(lo))) + f32(lo))));
export function refRandint(key, n, lo, hi) {
  const [k1, k2] = refSplit(key, 2);
  const higher = refBits(k1, n);
  const lower = refBits(k2, n);
  const span = hi <= lo ? 1 : (hi - lo) >>> 0;
  let mult = 65536 % span;
  mult = (Math.imul(mult, mult) >>> 0) % span;
  return higher.map((h, i) => {
    const offset = (((Math.imul(h % span, mult) >>> 0) + (lower[i] % span)) >>> 0) % span;
    return (lo + offset) | 0;
  });
}

// erf in float64: its series below 2, erfc's continued fraction (Lentz) above.
export function erfc(x) {
  if (x < 2) {
    let term = x;
    let sum = x;
    for (let n = 1; n < 80; n++) {
      term *= (-x * x) / n;
      sum += term / (2 * n + 1);
    }
    return 1 - (2 / Math.sqrt(Math.PI)) * sum;
  }
  let f = x;
  let c = x;
  let d = 0;
  for (let k = 1; k < 200; k++) {
    const a = k / 2;
    d = 1 / (x + a * d);
    c = x + a / c;
    f *= c * d;
  }
  return Math.exp(-x * x) / Math.sqrt(Math.PI) / f;
}
// erfinv(u) in float64 by Newton's method on erfc (so values near 1 keep their digits).
export function erfinv(u) {
  const s = Math.sign(u);
  const target = 1 - Math.abs(u); // exact: u is a float32
  let x = Math.sqrt(-Math.log(target * (2 - target)));
  for (let i = 0; i < 60; i++) x -= (target - erfc(x)) / ((2 / Math.sqrt(Math.PI)) * Math.exp(-x * x));
  return s * x;
}
