#!/usr/bin/env node
// shardlab check <problem-id> [solution.py | solution.mjs] [--cases FILE] [--json] [--time-limit SECONDS] [--seed S] [--require-isolation]
// shardlab run script.py
// shardlab list
// check: the solution (JAX in Python, or ShardLab's JS API) runs only in a
// sandboxed child process that traces it (sandbox_process.js: isolated by
// the OS where the machine can); this process runs the programs it sends
// back and judges them. stdout carries only the report; the solution's
// output goes to stderr, with what its program printed (jax.debug.print) in
// each case. Exit status: 0 all passed; 1 the solution was judged and
// something failed (its own errors included: a syntax error, a
// missing function); 2 a usage error of the CLI (message on stderr, no JSON).
// run: runs a JAX Python script on the 8 devices and prints what it prints;
// exit status 1 after an uncaught exception (its traceback on stderr).

import { existsSync, readFileSync } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ownCpuMeter } from './cpu_time.js';
import { checkSolution } from './engine.js';
import { LANGUAGES } from './names.js';
import { printable } from './printable.js';
import { loadProblem, PROBLEM_IDS } from './problems.js';
import { jsonReport } from './report_json.js';
import { IsolationError, startNodeSandbox } from './sandbox_process.js';
import { validateCases } from './validate_cases.js';

const USAGE = [
  'usage: shardlab check <problem-id> [solution.py | solution.mjs] [--cases FILE] [--json] [--time-limit SECONDS] [--seed S] [--require-isolation]',
  '       shardlab run script.py     (a JAX Python script on the 8 devices)',
  '       shardlab list',
  'Solutions are JAX in Python (.py: the function the problem names) or ShardLab\'s JS API (.mjs: the default export).',
  '--require-isolation: refuse to check where the sandbox cannot be isolated by the OS (for graders of other people\'s code).',
].join('\n');

class UsageError extends Error {}

function parse(argv) {
  const [command, ...rest] = argv;
  const opts = { command, json: false, cases: null, positional: [], timeLimitMs: 10000, seed: undefined, requireIsolation: false };
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--json') opts.json = true;
    else if (rest[i] === '--require-isolation') opts.requireIsolation = true;
    else if (rest[i] === '--time-limit') {
      opts.timeLimitMs = Number(rest[++i]) * 1000;
      if (!(opts.timeLimitMs > 0)) throw new UsageError('--time-limit needs a number of seconds');
    } else if (rest[i] === '--seed') {
      opts.seed = Number(rest[++i]);
      if (!(Number.isInteger(opts.seed) && opts.seed >= 0 && opts.seed < 2 ** 32)) throw new UsageError('--seed needs an integer from 0 to 2^32 - 1');
    } else if (rest[i] === '--cases') {
      if (i + 1 >= rest.length) throw new UsageError('--cases needs a file');
      opts.cases = rest[++i];
    } else if (rest[i].startsWith('--')) throw new UsageError(`unknown option ${rest[i]}`);
    else opts.positional.push(rest[i]);
  }
  return opts;
}

function readCases(file, problem) {
  let cases;
  try {
    // A byte order mark (what Notepad saves) is not part of the JSON.
    cases = JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new UsageError(`cannot read the cases file ${file}: ${e.message}`);
  }
  // Bad data is the file's fault: it must never reach the solution or the reference.
  const error = validateCases(problem, cases);
  if (error) throw new UsageError(`${file}: ${error}`);
  return cases;
}

// A number of the report as text: NaN and the infinities by name.
const numberText = (x) => (Number.isNaN(x) ? 'nan' : x === Infinity ? 'inf' : x === -Infinity ? '-inf' : x.toExponential(2));

// The report as text; every string a solution could have put there is printable().
function printReport(r) {
  const mark = (ok) => (ok ? 'PASS' : 'FAIL');
  const say = (...parts) => console.log(printable(parts.join('')));
  say(`${r.problem} (seed ${r.seed}): ${r.passed ? 'passed' : 'failed'} in ${r.timeMs} ms`);
  if (r.isolation.kind !== 'bubblewrap') say(`  note: the sandbox was not isolated by the OS: ${r.isolation.why}`);
  // A message said before (one error fails every case) is said once, then referred to.
  const said = new Map();
  const once = (name, message) => {
    if (!said.has(message)) said.set(message, name);
    return said.get(message) === name ? message : `the same as ${said.get(message)}`;
  };
  for (const c of r.cases) {
    const err = c.maxAbsError === null ? '' : ` max abs error ${numberText(c.maxAbsError)}`;
    say(`  ${mark(c.passed)} ${c.name}${err}${c.passed ? '' : `: ${once(c.name, c.message)}`}`);
    for (const d of c.diffs) say(`         ${d.output}[${d.index}] expected ${d.expected}, got ${d.actual}`);
  }
  for (const q of r.requirements) say(`  ${mark(q.passed)} ${q.id}: ${q.passed ? q.message : once(q.id, q.message)}`);
}

// What each case's run printed (jax.debug.print), on stderr, with the solution's other output.
function printOutputs(r) {
  for (const c of r.cases) if (c.output !== null) process.stderr.write(`${printable(`${c.name} printed:\n${c.output.replace(/^/gm, '  ')}`)}\n`);
}

async function main() {
  const opts = parse(process.argv.slice(2));
  if (opts.command === 'list') {
    for (const id of PROBLEM_IDS) {
      const p = await loadProblem(id);
      console.log(`${id}\t${p.difficulty}\t${p.title}`);
    }
    return 0;
  }
  if (opts.command === 'run') {
    if (opts.positional.length !== 1 || extname(opts.positional[0]) !== '.py') throw new UsageError(USAGE);
    if (!existsSync(opts.positional[0])) throw new UsageError(`cannot read ${opts.positional[0]}: no such file`);
    const { runPythonScript } = await import('../python/run.js');
    return runPythonScript(resolve(opts.positional[0]));
  }
  if (opts.command !== 'check' || opts.positional.length < 1 || opts.positional.length > 2) throw new UsageError(USAGE);
  const [id, file] = opts.positional;
  const problem = await loadProblem(id);
  if (!problem) throw new UsageError(`unknown problem '${id}'; the problems are ${PROBLEM_IDS.join(', ')}`);
  const lang = file ? LANGUAGES[extname(file)] : 'javascript';
  if (!lang) throw new UsageError(`${file}: a solution is a Python file (.py) or a JS module (.mjs, .js)`);
  const path = file ? resolve(file) : fileURLToPath(problem.solutionUrl);
  let source;
  try {
    source = readFileSync(path);
  } catch (e) {
    throw new UsageError(`cannot read the solution ${file}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
  }
  const cases = opts.cases ? readCases(opts.cases, problem) : undefined;
  let sandbox;
  try {
    sandbox = startNodeSandbox(source, basename(path), { functionName: problem.functionName, requireIsolation: opts.requireIsolation });
  } catch (e) {
    if (e instanceof IsolationError) throw new UsageError(`${e.message}; without --require-isolation the check runs unisolated`);
    throw e;
  }
  const report = await checkSolution(problem, null, { cases, sandbox, seed: opts.seed, timeLimitMs: opts.timeLimitMs, lang, judgeCpu: ownCpuMeter() });
  report.isolation = sandbox.isolation;
  printOutputs(report);
  if (opts.json) process.stdout.write(`${jsonReport(report)}\n`);
  else printReport(report);
  return report.passed ? 0 : 1;
}

// SIGUSR1 would open this process's inspector, through which a solution that
// can signal it (one not isolated by the OS) could rewrite its verdict; Node 20
// has no --disable-sigusr1, but a listener of its own replaces the inspector's.
process.on('SIGUSR1', () => {});

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e instanceof UsageError ? `shardlab: ${e.message}` : e);
    process.exit(e instanceof UsageError ? 2 : 1);
  },
);
