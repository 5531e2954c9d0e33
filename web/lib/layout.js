// The layout rule: which block of a global array each device holds, as
// cpp/runtime/partition_spec.h's Layout computes it. A mesh is
// {axisNames, axisSizes} with its devices numbered row-major; a spec entry
// per dimension is null (whole), an axis name, or several (major first).
// Used by arrays (addressableShards), visualizeSharding and the checker
// page's pictures, so the three agree with the core and with each other.

/** The mesh axes an entry splits its dimension over (null | axis | [axes]). */
export function entryAxes(entry) {
  if (entry === null || entry === undefined) return [];
  return Array.isArray(entry) ? entry : [entry];
}

/** Device d's coordinate along mesh axis `name`: (d / stride) mod size, the stride being the product of the later axes' sizes. */
export function deviceCoord(mesh, d, name) {
  const i = mesh.axisNames.indexOf(name);
  let stride = 1;
  for (let k = mesh.axisSizes.length - 1; k > i; k--) stride *= mesh.axisSizes[k];
  return Math.floor(d / stride) % mesh.axisSizes[i];
}

/**
 * How an entry splits its dimension, seen from device d: {parts, part}, with
 * parts the product of its axes' sizes and part = sum over its axes, major
 * first, of coord * (sizes of the axes after it in the entry).
 */
export function entryPart(mesh, entry, d) {
  let parts = 1;
  let part = 0;
  for (const a of entryAxes(entry)) {
    const size = mesh.axisSizes[mesh.axisNames.indexOf(a)];
    part = part * size + deviceCoord(mesh, d, a);
    parts *= size;
  }
  return { parts, part };
}

/** Device d's block of an array of `shape` laid out by `spec` (entries): [start, stop) per dimension. */
export function blockIndex(mesh, shape, spec, d) {
  return shape.map((n, dim) => {
    const { parts, part } = entryPart(mesh, spec[dim] ?? null, d);
    const size = n / parts;
    return [part * size, (part + 1) * size];
  });
}

/** For two spec entries (rows, columns): the grid of blocks, each the list of the devices holding it. */
export function devicesByBlock(mesh, [rows, cols]) {
  const size = mesh.axisSizes.reduce((a, b) => a * b, 1);
  const grid = Array.from({ length: entryPart(mesh, rows, 0).parts }, () => Array.from({ length: entryPart(mesh, cols, 0).parts }, () => []));
  for (let d = 0; d < size; d++) grid[entryPart(mesh, rows, d).part][entryPart(mesh, cols, d).part].push(d);
  return grid;
}
