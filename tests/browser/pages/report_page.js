// The checker page's report rendering (web/app/report.js) on a report whose
// every string is hostile markup, for tests/browser/page_safety.spec.js: what
// a tampered solution worker could make the page show.
import { markup } from '/web/app/dom.js';
import { renderReport } from '/web/app/report.js';

// Markup that would run script if it became HTML: in an element, in a double- and in a single-quoted attribute.
const HOSTILE = `<img src=x onerror="window.__pwned=1">x" onmouseover="window.__pwned=2" y="x' onmouseover='window.__pwned=3' y='`;

const X = HOSTILE;
const aval = { shape: [8, 4], str: `f32[8,4]${X}` };
const mesh = { axis_names: [X], shape: [8] };
const program = {
  invars: [{ name: X, aval }],
  outvars: [{ name: X, aval }],
  eqns: [
    {
      primitive: 'shard_map',
      inputs: [{ name: X, aval }],
      outputs: [{ name: X, aval }],
      params: {
        mesh,
        in_specs: [[X, null]],
        out_specs: [[X, null]],
        // collective: true and its traffic, as the core's JSON gives a psum.
        jaxpr: { eqns: [{ primitive: 'psum', collective: true, traffic: { algorithm: X, operand_bytes: 128, sent: Array(8).fill(896), computes: X, combine: X, links: [] }, inputs: [{ name: X, aval }], params: { axes: [X] } }] },
      },
    },
  ],
};
const report = {
  seed: X,
  timeMs: X,
  cases: [
    { name: X, passed: false, maxAbsError: null, message: X, diffs: [{ output: X, index: X, expected: X, actual: X }], output: `${X}\n${X}` },
    { name: X, passed: true, maxAbsError: 0, message: 'ok', diffs: [] },
  ],
  requirements: [
    { id: 'a', passed: false, message: X },
    { id: 'b', passed: true, message: X },
  ],
  jaxpr: `{ lambda ; a:f32[8,4]. let\n    b:f32[8,4] = shard_map[\n      jaxpr={ lambda ; c:f32[1,4]. let\n          d:f32[1,4] = psum[axes=(${X},)] c\n        in (d,) }\n    ] a\n  in (b,) }\n${X}`,
  // Where the body's one equation is (line 3), and entries no printer gives, to be ignored.
  jaxprBodies: [{ first: 3, last: 4, equations: X }, { first: X, last: 9, equations: 1 }, { first: 5, last: 99, equations: 1 }],
  program,
};

document.getElementById('results').replaceChildren(renderReport({ args: [X] }, report, true));
window.__hostile = HOSTILE;

// The page's own HTML (a statement) goes through markup(), which keeps formatting and drops anything active.
const ACTIVE_HTML = `${HOSTILE}<script>window.__pwned=4</script><a href="javascript:window.__pwned=5">link</a><iframe srcdoc="<script>parent.__pwned=6</script>"></iframe><svg onload="window.__pwned=7"><a href=" JavaScript:window.__pwned=8"><text>t</text></a></svg><b>kept</b>`;
const statement = document.createElement('section');
statement.id = 'markup';
statement.append(markup(ACTIVE_HTML));
document.body.append(statement);
