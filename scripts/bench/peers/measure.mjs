// The peer measurements, the same in Node and in Chromium: for each case,
// every library sets it up, each peer's outputs are checked against
// ShardLab's (cases.mjs's disagreement), then the libraries are timed in
// interleaved rounds, so that a slow moment of the machine falls on all of
// them alike. A library is {impl, ask(case) -> its host's ask (host.mjs)}.
import { atLevel, RowSamples } from '../stats.mjs';
import { CASES, disagreement, flopsOf, sizeText } from './cases.mjs';

/** Calls per timed sample, by case: enough that a sample is not one timer tick. */
const REPS = { 'matmul-256': 20, 'matmul-1024': 1, 'mlp-train-step': 1, 'data-parallel-step': 1, 'seed-step': 200 };

// Sets case `c` up in every library and checks each peer's outputs against ShardLab's (the first library): [{impl, error}] per peer.
async function setUpAndCompare(libraries, c, small) {
  const outputs = [];
  for (const lib of libraries) {
    await lib.ask(c)({ setup: c, small });
    outputs.push((await lib.ask(c)({ output: c })).output);
  }
  return libraries.slice(1).map((lib, i) => ({ impl: lib.impl, error: disagreement(outputs[0], outputs[i + 1]) }));
}

const disposeAll = async (libraries, c) => {
  for (const lib of libraries) await lib.ask(c)({ dispose: c });
};

/** Every case at its small size in every library: [{case, impl, error (null when it agrees with ShardLab)}]. */
export async function agreement(libraries, { small = true } = {}) {
  const out = [];
  for (const c of Object.keys(CASES)) {
    for (const r of await setUpAndCompare(libraries, c, small)) out.push({ case: c, ...r });
    await disposeAll(libraries, c);
  }
  return out;
}

/**
 * The peer rows ({group: 'peers', impl, case, size, unit, min, median}) of
 * every case at its benchmark size. A peer that disagrees with ShardLab
 * throws: the bench would compare different work.
 */
export async function measure(libraries, { level = 'full' } = {}) {
  const samples = new RowSamples();
  for (const [c, spec] of Object.entries(CASES)) {
    for (const { impl, error } of await setUpAndCompare(libraries, c, false)) {
      if (error) throw new Error(`peers: ${impl} disagrees with ShardLab on ${c}: ${error}`);
    }
    const row = (impl) => ({ group: 'peers', impl, case: c, size: sizeText(spec.dims), unit: spec.unit });
    for (let round = 0; round < atLevel(level, { full: 5, quick: 2 }); round++) {
      for (const lib of libraries) {
        const { ms } = await lib.ask(c)({ time: c, reps: REPS[c] });
        samples.add(row(lib.impl), spec.unit === 'GFLOP/s' ? flopsOf(spec.dims) / (ms * 1e6) : spec.unit === 'us/call' ? ms * 1000 : ms);
      }
    }
    await disposeAll(libraries, c);
  }
  return samples.rows();
}
