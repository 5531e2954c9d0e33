// What a case's run printed: the jax.debug.print calls of the solution's
// program, which the judge prints itself from each call's format (the
// sandbox's, untrusted text) and the values its own run computed, per
// device in device order. Kept as plain text, within a budget, for the
// report (the page's Output tab, the CLI's stderr).

/** Lines a case's output keeps at most; the rest are counted. */
export const MAX_OUTPUT_LINES = 200;
/** Characters a case's output keeps at most. */
export const MAX_OUTPUT_CHARS = 20000;

/** A collector: add(text) for each print (its lines kept while within the budget), text() the output, or null when nothing was printed. */
export function caseOutput() {
  const lines = [];
  let chars = 0;
  let more = 0;
  return {
    add(text) {
      for (const line of String(text).split('\n')) {
        if (lines.length < MAX_OUTPUT_LINES && chars + line.length <= MAX_OUTPUT_CHARS) {
          lines.push(line);
          chars += line.length + 1;
        } else more++;
      }
    },
    text: () => (lines.length || more ? lines.join('\n') + (more ? `\n… and ${more} more line${more === 1 ? '' : 's'}, not kept` : '') : null),
  };
}
