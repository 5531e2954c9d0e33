// What a case's run printed: the jax.debug.print calls of the solution's
// program, which the judge prints itself from each call's format (the
// sandbox's, untrusted text) and the values its own run computed, per
// device in device order. Kept as plain text, within a budget, for the
// report (the page's Output tab, the CLI's stderr).

/** Lines a case's output keeps at most; the rest are counted. */
export const MAX_OUTPUT_LINES = 200;
/** Characters a case's output keeps at most. */
export const MAX_OUTPUT_CHARS = 20000;

/**
 * A collector: add(text) for each print (its lines kept while within the
 * budget; null for a jax.debug.callback call, which the judge does not run,
 * counted), text() the output, or null when nothing was printed or called.
 */
export function caseOutput() {
  const lines = [];
  let chars = 0;
  let more = 0;
  let callbacks = 0;
  const note = () => (callbacks ? `\n(${callbacks} jax.debug.callback call${callbacks === 1 ? '' : 's'} not run: the judge runs none of a solution's functions, only its prints)` : '');
  return {
    add(text) {
      if (text === null) {
        callbacks++;
        return;
      }
      for (const line of String(text).split('\n')) {
        if (lines.length < MAX_OUTPUT_LINES && chars + line.length <= MAX_OUTPUT_CHARS) {
          lines.push(line);
          chars += line.length + 1;
        } else more++;
      }
    },
    text: () => (lines.length || more || callbacks ? (lines.join('\n') + (more ? `\n… and ${more} more line${more === 1 ? '' : 's'}, not kept` : '') + note()).replace(/^\n/, '') : null),
  };
}
