// The playground's code in a URL: UTF-8, compressed with the browser's
// CompressionStream (deflate-raw) and base64url-encoded, to go in the
// fragment, which the browser never sends: nothing leaves the browser.

const FORMAT = 'deflate-raw';
// A shared text larger than this is refused while decompressing (a tiny link could expand without bound).
const MAX_CODE_BYTES = 1 << 20;

/** `code` as a URL-safe string (compressed, base64url without padding). */
export async function encodeCode(code) {
  const bytes = new Uint8Array(await new Response(new Blob([code]).stream().pipeThrough(new CompressionStream(FORMAT))).arrayBuffer());
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** The code `encoded` holds (encodeCode's inverse); throws an Error saying why when it is cut short or corrupt. */
export async function decodeCode(encoded) {
  let binary;
  try {
    binary = atob(encoded.replaceAll('-', '+').replaceAll('_', '/'));
  } catch {
    throw new Error('it is not base64url text');
  }
  const compressed = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  let bytes;
  try {
    bytes = await readAll(new Blob([compressed]).stream().pipeThrough(new DecompressionStream(FORMAT)), MAX_CODE_BYTES);
  } catch (e) {
    throw new Error(e.message === 'too large' ? `it holds more than ${MAX_CODE_BYTES} bytes` : 'its compressed data is cut short or corrupt');
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Error('it is not UTF-8 text');
  }
}

// Every byte of `stream`, refusing more than `limit`.
async function readAll(stream, limit) {
  const chunks = [];
  let size = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      throw new Error('too large');
    }
    chunks.push(value);
  }
  return new Uint8Array(await new Blob(chunks).arrayBuffer());
}
