// The CLI's channel between the judge and its sandbox process: one JSON
// message per line over a socket the child inherits as a file descriptor.
// Node's own IPC channel is not used: it parses what the child writes in a
// callback the judge cannot guard (raw bytes on it threw an uncaught
// SyntaxError in the CLI) and carries Node's internal messages too. Here
// every line is read by code that turns anything malformed into an event.

import { MAX_TRACED_CHARS } from './protocol.js';

/**
 * The longest line the judge reads from a sandbox (bytes): the largest
 * message, a 'traced' of MAX_TRACED_CHARS characters (up to 3 bytes each
 * in UTF-8), with its envelope.
 */
export const MAX_LINE_BYTES = 3 * MAX_TRACED_CHARS + (1 << 20);

/**
 * Reads and writes newline-delimited JSON over `socket` (a net.Socket).
 * `onMessage(value)` gets each parsed line; `onMalformed(detail)` a line
 * that is not JSON or is longer than `maxLineBytes` (reading stops then).
 * Returns {send(value), close()}.
 */
export function lineChannel(socket, { onMessage, onMalformed = () => {}, maxLineBytes = MAX_LINE_BYTES }) {
  let parts = [];
  let size = 0;
  let broken = false;
  const fail = (detail) => {
    broken = true;
    parts = [];
    socket.pause();
    onMalformed(detail);
  };
  const line = (buffer) => {
    let value;
    try {
      value = JSON.parse(buffer.toString('utf8'));
    } catch {
      fail('not JSON');
      return;
    }
    onMessage(value);
  };
  socket.on('data', (chunk) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); !broken && nl !== -1; nl = chunk.indexOf(10, start)) {
      if (size + nl - start > maxLineBytes) return fail(`a message over ${maxLineBytes} bytes`);
      parts.push(chunk.subarray(start, nl));
      const whole = Buffer.concat(parts);
      parts = [];
      size = 0;
      start = nl + 1;
      line(whole);
    }
    if (broken || start === chunk.length) return;
    size += chunk.length - start;
    if (size > maxLineBytes) return fail(`a message over ${maxLineBytes} bytes`);
    parts.push(chunk.subarray(start));
  });
  socket.on('error', () => {});
  return {
    send: (value) => socket.write(`${JSON.stringify(value)}\n`),
    close: () => socket.destroy(),
  };
}
