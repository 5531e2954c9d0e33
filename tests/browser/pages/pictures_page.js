// The checker page's pictures (web/app/pictures.js) of a program that uses
// every collective, for tests/browser/pictures.spec.js: window.__pictures()
// traces it, draws its pictures and returns what the registry, the program
// JSON and the pictures each say the collectives are.
import * as sl from '/web/lib/index.js';
import { state } from '/web/lib/api/core/state.js';
import { programPictures } from '/web/app/pictures.js';

const { lax, P } = sl;

window.__pictures = async () => {
  await sl.init();
  const mesh = sl.makeMesh([8], ['data']);
  const ring = Array.from({ length: 8 }, (_, d) => [d, (d + 1) % 8]);
  const body = (x) => {
    const parts = [
      lax.psum(x, 'data'),
      lax.pmax(x, 'data'),
      lax.pmin(x, 'data'),
      lax.allGather(x, 'data', { tiled: true }).sum({ axis: 0, keepdims: true }),
      lax.psumScatter(lax.allGather(x, 'data', { tiled: true }), 'data', { tiled: true }),
      lax.ppermute(x, 'data', ring),
      lax.allToAll(x, 'data', 1, 1, { tiled: true }),
    ];
    return parts.reduce((a, b) => a.add(b));
  };
  const f = sl.shardMap(body, { mesh, inSpecs: P('data'), outSpecs: P('data') });
  const program = sl.makeJaxpr(f)(new sl.ShapeDtypeStruct([8, 8])).toJSON();
  document.getElementById('results').replaceChildren(programPictures(program, ['x']));
  const eqns = program.eqns[0].params.jaxpr.eqns;
  return {
    registry: state.runtime.traces.laxFunctions().filter((f) => f.collective && f.primitive).map((f) => f.primitive),
    used: [...new Set(eqns.map((e) => e.primitive))],
    marked: [...new Set(eqns.filter((e) => e.collective).map((e) => e.primitive))],
    pictured: [...document.querySelectorAll('figure.collective')].map((f) => f.dataset.primitive),
  };
};
