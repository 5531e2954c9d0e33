#!/usr/bin/env node
// shardlab check <problem-id> [solution.mjs] [--cases FILE] [--json]
// shardlab list
// Exit status: 0 all passed; 1 the solution ran and something failed;
// 2 a usage error (message on stderr, no JSON).

import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkSolution } from './engine.js';
import { loadProblem, PROBLEM_IDS } from './problems.js';

const USAGE = 'usage: shardlab check <problem-id> [solution.mjs] [--cases FILE] [--json]\n       shardlab list';

class UsageError extends Error {}

function parse(argv) {
  const [command, ...rest] = argv;
  const opts = { command, json: false, cases: null, positional: [] };
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--json') opts.json = true;
    else if (rest[i] === '--cases') {
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
    cases = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UsageError(`cannot read the cases file ${file}: ${e.message}`);
  }
  const ok = Array.isArray(cases) && cases.every((c) => c && typeof c.input === 'object' && typeof c.expected === 'object');
  if (!ok) throw new UsageError(`${file}: expected a JSON array of {"input": {...}, "expected": {...}}`);
  for (const [i, c] of cases.entries()) {
    const missing = problem.args.filter((a) => !(a in c.input));
    if (missing.length) throw new UsageError(`${file}: case ${i} lacks the input(s) ${missing.join(', ')}`);
    const outs = Object.keys(problem.outputs).filter((k) => !(k in c.expected));
    if (outs.length) throw new UsageError(`${file}: case ${i} lacks the expected output(s) ${outs.join(', ')}`);
  }
  return cases;
}

async function loadSolution(file) {
  register('./resolve_hooks.mjs', import.meta.url);
  let mod;
  try {
    mod = await import(pathToFileURL(resolve(file)).href);
  } catch (e) {
    throw new UsageError(`cannot load the solution ${file}: ${e.message}`);
  }
  if (typeof mod.default !== 'function') throw new UsageError(`${file} has no default export (export default function solution(...))`);
  return mod.default;
}

function printReport(r) {
  const mark = (ok) => (ok ? 'PASS' : 'FAIL');
  console.log(`${r.problem} (seed ${r.seed}): ${r.passed ? 'passed' : 'failed'} in ${r.timeMs} ms`);
  for (const c of r.cases) {
    const err = c.maxAbsError === null ? '' : ` max abs error ${c.maxAbsError.toExponential(2)}`;
    console.log(`  ${mark(c.passed)} ${c.name}${err}${c.passed ? '' : `: ${c.message}`}`);
    for (const d of c.diffs) console.log(`         ${d.output}[${d.index}] expected ${d.expected}, got ${d.actual}`);
  }
  for (const q of r.requirements) console.log(`  ${mark(q.passed)} ${q.id}: ${q.message}`);
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
  if (opts.command !== 'check' || opts.positional.length < 1 || opts.positional.length > 2) throw new UsageError(USAGE);
  const [id, file] = opts.positional;
  const problem = await loadProblem(id);
  if (!problem) throw new UsageError(`unknown problem '${id}'; the problems are ${PROBLEM_IDS.join(', ')}`);
  const cases = opts.cases ? readCases(opts.cases, problem) : undefined;
  const solution = file ? await loadSolution(file) : problem.solution;
  // With --json stdout holds only the report: the solution's output goes to stderr.
  const log = console.log;
  if (opts.json) console.log = console.info = console.debug = (...a) => console.error(...a);
  const report = await checkSolution(problem, solution, { cases });
  if (opts.json) {
    const { jaxpr, ...rest } = report;
    process.stdout.write(`${JSON.stringify(rest)}\n`);
  } else {
    console.log = log;
    printReport(report);
  }
  return report.passed ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e instanceof UsageError ? `shardlab: ${e.message}` : e);
    process.exit(e instanceof UsageError ? 2 : 1);
  },
);
