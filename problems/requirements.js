// Requirements several problems state alike, built from each problem's
// words: the rule is written once here, the teaching in the problem. Data
// like the problems: the checks get their queries in the check's context.

/**
 * The program does not grow with an axis: the solution is traced at the
 * shapes `traceAt(input)` gives as well, and every program must have as many
 * equations; `advice(growth, api)` is the message when one has more.
 */
export function doesNotGrow({ id, text, traceAt, advice }) {
  return {
    id,
    text,
    traceAt,
    check({ traces, api, query: { traceFailure, sizeGrowth } }) {
      const failed = traceFailure(traces);
      if (failed) return failed;
      const growth = sizeGrowth(traces);
      return growth === null || advice(growth, api);
    },
  };
}

/**
 * The scalar argument `name` stays traced: the program reads it (`unused`
 * says why it must when it does not), and a solution that turns it into a
 * number is told so (`how`: the conversions to name, per language).
 */
export function tracedScalar(name, { unused, how }) {
  return {
    id: `${name}-traced`,
    text: `${name} stays a traced float32 scalar (never converted to a number).`,
    check({ jaxpr, vars, query: { reads } }) {
      return reads(jaxpr, vars[name]) || `${name} is not used by the program: ${unused}`;
    },
    traceError(error, { lang }) {
      if (!/^Concretization/.test(error.name)) return null;
      return `the solution turns a traced value into a number (${how[lang]}): under jit every argument, ${name} included, is abstract; keep it an array (${error.name})`;
    },
  };
}
