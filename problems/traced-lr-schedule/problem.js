// Traced Learning Rate Schedule: the problem as data for the checker.

/** The arguments, in the solution's order (format: web/checker/constraints.js). */
const inputs = {
  w: { dtype: 'float32', shape: ['D'], values: { ge: -10, le: 10 } },
  g: { dtype: 'float32', shape: ['D'], values: { ge: -10, le: 10 } },
  step: { dtype: 'int32', shape: [], values: { ge: 0, le: 999 } },
  base_lr: { dtype: 'float32', shape: [], values: { gt: 0, le: 1 } },
  warmup: { dtype: 'int32', shape: [], values: { ge: 1, le: 999 } },
  total: { dtype: 'int32', shape: [], values: { ge: 2, le: 1000 } },
};

/** The dimensions' allowed sizes. */
const dims = { D: { min: 1, max: 8 } };

/** The schedule's order: 0 <= step < total and 1 <= warmup < total. */
function validate({ step, warmup, total }) {
  if (step >= total) return `input step = ${step} is not below total = ${total}; the schedule runs for steps 0 to total - 1`;
  if (warmup >= total) return `input warmup = ${warmup} is not below total = ${total}; the cosine phase needs at least one step`;
  return null;
}

/** The learning rate at `step` in float64. */
function rate({ step, base_lr, warmup, total }) {
  if (step < warmup) return (base_lr * step) / warmup;
  return base_lr * 0.5 * (1 + Math.cos((Math.PI * (step - warmup)) / (total - warmup)));
}

/** The update in float64, from the formula (no library code). */
function reference(input) {
  const lr = rate(input);
  return { w: input.w.map((v, i) => v - lr * input.g[i]), lr };
}

/** A case within the constraints: the step before, at or after the end of the warmup. */
function generate(rng) {
  const D = rng.int(1, 8);
  const total = rng.pick([rng.int(2, 20), rng.int(2, 1000)]);
  const warmup = rng.int(1, total - 1);
  const phase = rng.pick(['warmup', 'boundary', 'cosine']);
  const step = phase === 'warmup' ? rng.int(0, warmup - 1) : phase === 'boundary' ? warmup : rng.int(warmup, total - 1);
  return { w: rng.vector(D, -10, 10), g: rng.vector(D, -10, 10), step, base_lr: rng.pick([0.001, 0.01, 0.1, 0.3, 0.5, 1]), warmup, total };
}

const examples = [
  { input: { w: [1, 2], g: [0.5, -1], step: 2, base_lr: 0.1, warmup: 4, total: 10 }, expected: { w: [0.975, 2.05], lr: 0.05 } },
  { input: { w: [1, 2], g: [0.5, -1], step: 6, base_lr: 0.1, warmup: 4, total: 10 }, expected: { w: [0.9625, 2.075], lr: 0.075 } },
  { input: { w: [1, 2], g: [0.5, -1], step: 4, base_lr: 0.1, warmup: 4, total: 10 }, expected: { w: [0.95, 2.1], lr: 0.1 } },
];

const HYPER = ['step', 'warmup', 'total', 'base_lr'];
const COMPARISONS = new Set(['lt', 'le', 'gt', 'ge']);

const requirements = [
  {
    id: 'schedule-traced',
    text: 'step, warmup, total and base_lr stay traced: the result is computed from each of them inside the program.',
    check({ jaxpr, vars, lang, query: { dependents } }) {
      const outs = jaxpr.outvars.map((v) => v.name);
      const unused = HYPER.filter((name) => {
        const deps = dependents(jaxpr, vars[name]);
        return !outs.some((o) => deps.has(o));
      });
      if (!unused.length) return true;
      const js = lang === 'python' ? '' : ' (a JS if or ?: on a traced comparison always takes its first branch, since the array object is truthy)';
      return `the returned values do not depend on ${unused.join(', ')}: the traced program never reads ${unused.length > 1 ? 'them' : 'it'}, so part of the schedule was decided outside it${js}; compute both phases from the traced arguments`;
    },
    traceError(error, { lang }) {
      if (!/^Concretization/.test(error.name)) return null;
      const how = lang === 'python' ? 'float(step), int(warmup) or step.item()' : 'Number(step), +step, or a JS comparison such as step < warmup';
      return `the solution turns a traced argument into a number (${how}): under jit step, warmup and total are abstract int32 scalars; keep them arrays and compute the rate with array operations (${error.name})`;
    },
  },
  {
    id: 'phase-chosen-in-program',
    text: 'The schedule is computed in the program from the traced step (with where, select, cond, minimum, clip or any formula of step), never decided outside it.',
    check({ jaxpr, traced, vars, outputs, api, lang, query: { allEquations, dependents, flowsTo } }) {
      const test = lang === 'python' ? 'step < warmup' : 'step.lt(warmup)';
      const how = `compute both phases from the traced arguments and choose with ${api('np.where')}(${test}, warm, cosine), ${api('lax.select')}, ${api('lax.cond')}, or a formula such as ${api('np.minimum')}`;
      // In the program as traced: a comparison of step whose result nothing reads is a JS if or ?: on a tracer object.
      const deps = dependents(traced, vars.step);
      const read = new Set(traced.outvars.map((v) => v.name));
      const eqns = allEquations(traced);
      for (const e of eqns) e.inputs.forEach((a) => read.add(a.name));
      const dropped = eqns.some((e) => COMPARISONS.has(e.primitive) && e.inputs.some((a) => deps.has(a.name)) && e.outputs.every((o) => !read.has(o.name)));
      if (dropped) return `a comparison of step is computed but nothing uses it (a JS if or ?: tests the array object, which is always truthy): the phase was decided outside the program; ${how}`;
      if (!flowsTo(jaxpr, vars.step, outputs.lr)) return `lr is not computed from the traced step: ${how}`;
      return true;
    },
    traceError(error, { api, lang }) {
      const choose = `compute both phases and choose with ${api('np.where')} or ${api('lax.cond')} (${error.name})`;
      if (error.name === 'TracerBoolConversionError') return `the function branches on the traced step (an if on step < warmup): under jit its value is unknown, so Python cannot pick a branch; ${choose}`;
      if (lang !== 'python' && error.name === 'ConcretizationError') return `the function uses a traced value as a JS number (step < warmup, Number(step)): under jit its value is unknown, so JavaScript cannot pick a branch; ${choose}`;
      return null;
    },
  },
];

export default {
  id: 'traced-lr-schedule',
  title: 'Traced Learning Rate Schedule',
  difficulty: 'Medium',
  topic: 'Control flow',
  args: Object.keys(inputs),
  /** The Python solution's function (or the file's one public function). */
  functionName: 'schedule_step',
  inputs,
  dims,
  outputs: {
    w: { dtype: 'float32', shape: ['D'] },
    lr: { dtype: 'float32', shape: [] },
  },
  tolerance: { atol: 1e-4, rtol: 1e-4 },
  validate,
  examples,
  hints: {
    python: [
      'Both phases can be computed for any step: step / warmup divides int32 arrays into a float32 one, and jnp.cos takes the cosine.',
      'jnp.where(step < warmup, warm, cosine) picks one of the two traced values without leaving the program.',
      'jax.lax.cond(step < warmup, warm_fn, cosine_fn) works too: it traces both functions and runs one.',
    ],
    javascript: [
      'Both phases can be computed for any step: step.div(warmup) divides int32 arrays into a float32 one, and np.cos takes the cosine.',
      'np.where(step.lt(warmup), warm, cosine) picks one of the two traced values without leaving the program.',
      'In JavaScript, if (step.lt(warmup)) does not throw but is always taken: the array object is truthy.',
    ],
  },
  generate,
  reference,
  requirements,
};
