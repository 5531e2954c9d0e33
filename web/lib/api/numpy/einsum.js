// np.einsum: any subscripts, with '...', repeated indices within an operand
// (the diagonal) and implicit output; operands contracted pairwise from the
// left with dot_general (re-exported by np.js).

import { ShapeError, ValueError } from '../../errors.js';
import { asDtype, selectWhere as where } from './helpers.js';
import { broadcastTo, sum, transpose } from './math.js';
import { avalOf, resultType, traced, traceFor } from '../core/operands.js';
import { staticKey } from '../core/op.js';
import { runEager } from '../core/run.js';
import { currentTrace } from '../core/state.js';

// Labels for the dimensions '...' stands for: private code points, the k-th from the right.
const ellipsisLabel = (k) => String.fromCharCode(0x2460 + k);

// The subscripts parsed against the operands' ranks: one label list per
// operand (ellipses expanded) and the output's labels.
function parse(subscripts, ranks) {
  if (typeof subscripts !== 'string') throw new ValueError(`np.einsum: subscripts must be a string such as 'ij,jk->ik', got ${typeof subscripts}`);
  const spec = subscripts.replace(/\s+/g, '');
  const [lhs, rhs, extra] = spec.split('->');
  if (extra !== undefined) throw new ValueError(`np.einsum: subscripts ${JSON.stringify(subscripts)} have more than one '->'`);
  const inputs = lhs.split(',');
  if (inputs.length !== ranks.length) {
    throw new ValueError(`np.einsum: subscripts ${JSON.stringify(subscripts)} name ${inputs.length} operand(s), but ${ranks.length} were given`);
  }
  let ellipsisRank = 0;
  const labels = inputs.map((s, i) => {
    const parts = s.split('...');
    if (parts.length > 2) throw new ValueError(`np.einsum: operand ${i} ('${s}') has more than one '...'`);
    const letters = parts.join('');
    if (!/^[a-zA-Z]*$/.test(letters)) throw new ValueError(`np.einsum: subscripts use letters, '...', ',' and '->'; got ${JSON.stringify(subscripts)}`);
    const covered = ranks[i] - letters.length;
    if (parts.length === 1 ? covered !== 0 : covered < 0) {
      throw new ShapeError(`np.einsum: operand ${i} has rank ${ranks[i]} but its subscripts '${s}' name ${letters.length} dimension(s)`);
    }
    if (parts.length === 1) return [...letters];
    ellipsisRank = Math.max(ellipsisRank, covered);
    return [...parts[0], ...Array.from({ length: covered }, (_, k) => ellipsisLabel(covered - 1 - k)), ...parts[1]];
  });
  const ellipsis = Array.from({ length: ellipsisRank }, (_, k) => ellipsisLabel(ellipsisRank - 1 - k));
  let output;
  if (rhs === undefined) {
    const counts = new Map();
    for (const l of labels.flat()) counts.set(l, (counts.get(l) ?? 0) + 1);
    output = [...ellipsis, ...[...counts].filter(([l, c]) => c === 1 && !ellipsis.includes(l)).map(([l]) => l).sort()];
  } else {
    const parts = rhs.split('...');
    if (parts.length > 2 || !/^[a-zA-Z]*$/.test(parts.join(''))) throw new ValueError(`np.einsum: bad output subscripts '${rhs}'`);
    output = parts.length === 1 ? [...rhs] : [...parts[0], ...ellipsis, ...parts[1]];
    const seen = new Set();
    for (const l of output) {
      if (seen.has(l)) throw new ValueError(`np.einsum: output subscript '${l}' appears more than once`);
      if (!labels.some((ls) => ls.includes(l))) throw new ValueError(`np.einsum: output subscript '${l}' does not appear in the inputs`);
      seen.add(l);
    }
  }
  return { labels, output };
}

// Operand x (labels ls) with each repeated label reduced to its diagonal.
function diagonals(t, x, ls) {
  let v = x;
  let labels = [...ls];
  for (;;) {
    const q = labels.findIndex((l, i) => labels.indexOf(l) !== i);
    if (q < 0) return { v, labels };
    const p = labels.indexOf(labels[q]);
    if (v.shape[p] !== v.shape[q]) throw new ShapeError(`np.einsum: repeated subscript '${labels[q]}' spans dimensions of sizes ${v.shape[p]} and ${v.shape[q]}`);
    const along = (d) => t.emit('iota', { dtype: 'int32', shape: v.shape, dimension: d }, [])[0];
    const onDiagonal = t.emit('eq', {}, [along(p).atomIn(t), along(q).atomIn(t)])[0];
    v = sum(where(onDiagonal, v, 0), q);
    labels = labels.filter((_, i) => i !== q);
  }
}

function einsumTraced(subscripts, operands) {
  const t = traceFor('einsum');
  const avals = operands.map((x) => avalOf(x, 'np.einsum'));
  const { labels, output } = parse(subscripts, avals.map((a) => a.shape.length));
  const { dtype: dt, weak } = resultType(avals);
  // The size of every label (size-1 dimensions broadcast against the others).
  const size = new Map();
  labels.forEach((ls, i) =>
    ls.forEach((l, d) => {
      const n = avals[i].shape[d];
      if (size.has(l) && size.get(l) !== n && size.get(l) !== 1 && n !== 1) {
        throw new ShapeError(`np.einsum: subscript '${l}' has size ${size.get(l)} in one operand and ${n} in operand ${i}`);
      }
      if (!size.has(l) || size.get(l) === 1) size.set(l, n);
    }),
  );
  const neededAfter = (k) => new Set([...output, ...labels.slice(k + 1).flat()]);
  // Each operand: its dtype, its diagonals, its size-1 dimensions broadcast, its private labels summed out.
  const prepared = operands.map((x, i) => {
    let { v, labels: ls } = diagonals(t, asDtype(traced(t, x, 'np.einsum'), dt, weak), labels[i]);
    const full = ls.map((l) => size.get(l));
    if (full.some((n, d) => n !== v.shape[d])) v = broadcastTo(v, full);
    const others = new Set([...output, ...labels.filter((_, j) => j !== i).flat()]);
    const own = ls.map((l, d) => (others.has(l) ? -1 : d)).filter((d) => d >= 0);
    if (own.length) {
      v = sum(v, own);
      ls = ls.filter((_, d) => !own.includes(d));
    }
    return { v, ls };
  });
  let { v: acc, ls: accLabels } = prepared[0];
  for (let k = 1; k < prepared.length; k++) {
    const { v, ls } = prepared[k];
    const needed = neededAfter(k);
    const shared = accLabels.filter((l) => ls.includes(l));
    const batch = shared.filter((l) => needed.has(l));
    const contract = shared.filter((l) => !needed.has(l));
    const dims = [accLabels, ls].map((side) => [contract.map((l) => side.indexOf(l)), batch.map((l) => side.indexOf(l))]);
    acc = t.emit('dot_general', { dimension_numbers: [dims[0][0], dims[1][0], dims[0][1], dims[1][1]], preferred_element_type: dt, out_sharding: null }, [acc.atomIn(t), v.atomIn(t)])[0];
    accLabels = [...batch, ...accLabels.filter((l) => !shared.includes(l)), ...ls.filter((l) => !shared.includes(l))];
    // Labels no later operand and not the output need: summed out now.
    const done = accLabels.map((l, d) => (needed.has(l) ? -1 : d)).filter((d) => d >= 0);
    if (done.length) {
      acc = sum(acc, done);
      accLabels = accLabels.filter((_, d) => !done.includes(d));
    }
  }
  const perm = output.map((l) => accLabels.indexOf(l));
  return perm.every((p, i) => p === i) ? acc : transpose(acc, perm);
}

// numpy's second form, einsum(op0, sublist0, op1, sublist1, ..., [sublistOut]),
// as the first: each sublist's integers name dimensions (0-25 as 'a'-'z',
// 26-51 as 'A'-'Z'), '...' the ellipsis. Returns [subscripts, operands].
function fromSublists(args) {
  const labels = (sublist, which) => {
    if (!Array.isArray(sublist)) throw new ValueError(`np.einsum: ${which} must be a list of integers (and '...'), got ${typeof sublist}`);
    return sublist
      .map((d) => {
        if (d === '...') return '...';
        if (!Number.isInteger(d) || d < 0 || d > 51) throw new ValueError(`np.einsum: ${which} holds ${JSON.stringify(d)}; a dimension is an integer from 0 to 51, or '...'`);
        return String.fromCharCode(d < 26 ? 97 + d : 39 + d);
      })
      .join('');
  };
  const operands = [];
  const inputs = [];
  for (let i = 0; i + 1 < args.length; i += 2) {
    operands.push(args[i]);
    inputs.push(labels(args[i + 1], `the sublist of operand ${i / 2}`));
  }
  const output = args.length % 2 ? `->${labels(args[args.length - 1], 'the output sublist')}` : '';
  return [inputs.join(',') + output, operands];
}

/**
 * np.einsum(subscripts, ...operands): Einstein summation, e.g. 'ij,jk->ik',
 * 'bij,bjk->bik', 'ii->i', 'ii', 'i,i', '...ij,...jk'; without '->' the
 * output is the labels appearing once, in alphabetical order. Or numpy's
 * other form, np.einsum(x, [0, 1], y, [1, 2], [0, 2]): operands each followed
 * by its dimensions as integers, then optionally the output's.
 */
export function einsum(first, ...rest) {
  const [subscripts, operands] = typeof first === 'string' ? [first, rest] : fromSublists([first, ...rest]);
  if (currentTrace()) return einsumTraced(subscripts, operands);
  return runEager(`einsum|${staticKey(subscripts)}`, (...xs) => einsumTraced(subscripts, xs), operands);
}
