// npm start: every problem's reference solution through the checker, as a
// table (problem, cases passed, requirements passed, time). `--devices` also
// runs the device runtime's demo of every collective (scripts/demo.mjs).
import { checkSolution } from '../web/checker/engine.js';
import { loadProblem, PROBLEM_IDS } from '../web/checker/problems.js';
import { runtimeInfo } from '../web/lib/index.js';

const rows = [];
for (const id of PROBLEM_IDS) {
  const problem = await loadProblem(id);
  const r = await checkSolution(problem, problem.solution);
  rows.push([id, `${r.cases.filter((c) => c.passed).length}/${r.cases.length}`, `${r.requirements.filter((q) => q.passed).length}/${r.requirements.length}`, `${r.timeMs} ms`, r.passed ? 'passed' : 'FAILED']);
}
const info = runtimeInfo();
console.log(`ShardLab checker: reference solutions on ${info.devices} devices (${info.executor})\n`);
const head = ['problem', 'cases', 'requirements', 'time', 'verdict'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
console.log(line(head));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const r of rows) console.log(line(r));
console.log('\nCheck your own: npx shardlab check <problem> solution.mjs   (npx shardlab list for the problems)');
if (process.argv.includes('--devices')) await import('./demo.mjs');
process.exit(rows.every((r) => r[4] === 'passed') ? 0 : 1);
