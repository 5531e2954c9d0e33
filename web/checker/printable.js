// Learner text as a terminal may show it: a solution's messages and output
// reach the CLI's report and stderr, and a carriage return, an ANSI escape
// or a bidirectional override in them could draw a forged "PASS" over the
// judge's real line. Each such character is written out as an escape.

// C0 controls but tab and newline, DEL, C1 controls, and Unicode's bidirectional embeddings, overrides and isolates.
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const escape = (c) => {
  const n = c.charCodeAt(0);
  return n < 0x100 ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16).padStart(4, '0')}`;
};

/** `text` with every character that could move the cursor, recolour or reorder a terminal's text written as an escape (`\x1b`). */
export function printable(text) {
  return String(text).replace(UNSAFE, escape);
}
