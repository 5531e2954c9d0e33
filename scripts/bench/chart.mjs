// An SVG bar chart of benchmark medians, one panel per group and unit, bars on a log
// scale per panel (the rows span microseconds to hundreds of milliseconds).

const COLORS = {
  native: '#4e79a7',
  'native-sse4.2': '#a0cbe8',
  'native-eigen-1-thread': '#4e79a7',
  wasm: '#f28e2b',
  'wasm-fma': '#d4651a',
  'wasm-jit': '#f28e2b',
  'wasm-8-devices': '#f28e2b',
  'wasm-1-device': '#ffbe7d',
  'wasm-eigen': '#ffbe7d',
  'wasm-eigen-sse': '#b07aa1',
  postmessage: '#e15759',
  'js-atomics': '#9c755f',
  'plain-js': '#59a14f',
  node: '#76b7b2',
  page: '#76b7b2',
  shardlab: '#f28e2b',
  'tfjs-wasm': '#edc948',
  'jax-js': '#17becf',
};

/** The chart of `rows` ({group, impl, case, size, unit, median}). */
export function chartSvg(rows) {
  // One panel per group and unit (the peers group holds GFLOP/s, ms/step and us/call rows).
  const panel = (r) => `${r.group} (${r.unit})`;
  const groups = [...new Set(rows.map(panel))];
  const barH = 14;
  const label = (r) => `${r.impl} ${r.case} ${r.size}`;
  // The label column fits the longest label (about 6.2 px per character at 11 px).
  const left = 20 + Math.ceil(Math.max(...rows.map((r) => label(r).length)) * 6.2);
  const width = left + 500;
  let y = 30;
  let body = `<text x="10" y="18" font-size="14" font-weight="bold">ShardLab benchmarks (median; log scale)</text>`;
  for (const g of groups) {
    const rs = rows.filter((r) => panel(r) === g);
    // Each panel has its own unit, so its own scale.
    const maxLog = Math.log10(Math.max(...rs.map((r) => r.median), 10));
    body += `<text x="10" y="${y + 12}" font-size="12" font-weight="bold">${g}</text>`;
    y += 18;
    for (const r of rs) {
      const w = Math.max(1, ((Math.log10(Math.max(r.median, 1)) / maxLog) * (width - left - 80)));
      body += `<text x="10" y="${y + 11}" font-size="11">${label(r)}</text>`;
      body += `<rect x="${left}" y="${y}" width="${w.toFixed(1)}" height="${barH - 2}" fill="${COLORS[r.impl] ?? COLORS[r.impl.replace(/-chromium$/, '')] ?? '#999'}"/>`;
      body += `<text x="${left + w + 4}" y="${y + 11}" font-size="11">${r.median.toFixed(1)}</text>`;
      y += barH;
    }
    y += 10;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${y + 10}" font-family="sans-serif"><rect width="100%" height="100%" fill="#fff"/>${body}</svg>\n`;
}
