// The judge's stages on a large program (`npm run bench` group `judge`): the
// times of every stage the judge runs on a traced program it receives
// (rebuilding it from export text, the jaxpr's text and JSON, the live
// program, data flow, an ablation's rewrite, the lowered program's JSON) at 5,000 and 20,000
// equations, so the ratio shows each stage's growth and the 20,000 row its
// cost against the 0.5 s a stage may take (issue 33). The linearity test
// (tests/js/judge_limits.test.js) times the same stages.
import * as sl from '../../web/lib/index.js';
import { ablated } from '../../web/checker/ablation.js';
import { dependents, readersOutsideShardMaps } from '../../web/checker/jaxpr_query.js';
import { liveProgram } from '../../web/checker/live_program.js';
import { atLevel, RowSamples } from './stats.mjs';

/** The export text of a program of about `n` equations: a chain of adds of each device's block to itself inside a shard_map (no literal, which a body would pvary). */
export async function exportedChain(n) {
  const mesh = sl.makeMesh([8], ['data']);
  const f = (x) => ({ out: sl.shardMap((b) => Array.from({ length: n }, () => 0).reduce((y) => y.add(b), b), { mesh, inSpecs: sl.P('data'), outSpecs: sl.P('data') })(x) });
  const e = sl.export.export(f)(new sl.ShapeDtypeStruct([8, 4]));
  try {
    return await e.serialize();
  } finally {
    e.dispose();
  }
}

/** The judge's stages on export text `text`, each a function that runs it once (the inputs each needs made beforehand). */
export function judgeStages(text) {
  const d = sl.export.deserialize(text);
  const j = d.jaxpr();
  const json = j.toJSON();
  const live = liveProgram(json);
  return {
    stages: {
      deserialize: () => sl.export.deserialize(text).dispose(),
      'jaxpr (text, JSON, bodies)': () => d.jaxpr(),
      toJSON: () => j.toJSON(),
      liveProgram: () => liveProgram(json),
      dependents: () => dependents(live, live.invars[0].name),
      readersOutsideShardMaps: () => readersOutsideShardMaps(live, live.invars[0].name),
      'ablated (every add)': () => ablated(text, (e) => e.primitive === 'add'),
      loweredJSON: () => d.loweredJSON(),
    },
    dispose: () => d.dispose(),
  };
}

/** The milliseconds of one run of `f`. */
export function timeOnce(f) {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
}

/** The judge rows: ms per stage at 5,000 and 20,000 equations, rounds interleaved. */
export async function judgeRows({ level = 'full' } = {}) {
  await sl.init();
  const rounds = atLevel(level, { full: 7, quick: 3, smoke: 1 });
  const samples = new RowSamples();
  const programs = [];
  for (const n of [5000, 20000]) programs.push({ n, ...judgeStages(await exportedChain(n - 10)) });
  for (let r = 0; r < rounds; r++) {
    for (const { n, stages } of programs) {
      for (const [name, f] of Object.entries(stages)) {
        samples.add({ group: 'judge', impl: 'node', case: name, size: `${n} equations`, unit: 'ms' }, timeOnce(f));
      }
    }
  }
  programs.forEach((p) => p.dispose());
  return samples.rows();
}
