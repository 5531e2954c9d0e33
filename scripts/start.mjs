// npm start: every problem's reference solution through the checker, as a
// table (problem, cases passed, requirements passed, time); then builds the
// checker page and serves it with the COOP/COEP headers, printing its URL
// (`--no-serve` stops after the table). `--devices` also runs the device
// runtime's demo of every collective (scripts/demo.mjs).
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
if (process.argv.includes('--no-serve')) process.exit(rows.every((r) => r[4] === 'passed') ? 0 : 1);

const { build } = await import('vite');
const { spawn } = await import('node:child_process');
const root = new URL('../', import.meta.url).pathname;
await build({ configFile: `${root}web/app/vite.config.js`, logLevel: 'error' });
const port = process.env.PORT ?? 8080;
console.log(`\nThe checker page: http://localhost:${port}/  (Ctrl+C stops it)`);
const server = spawn(process.execPath, [`${root}scripts/serve.mjs`, '--root', `${root}build/app`, '--port', String(port)], { stdio: 'inherit' });
server.on('exit', (code) => process.exit(code ?? 0));
