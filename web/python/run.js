// `shardlab run script.py`: runs a JAX Python script on the 8 devices in
// this process, printing what it prints; an uncaught exception goes to
// stderr as Python prints it (the script's own frames), with exit code 1.

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import * as sl from '../lib/index.js';
import { startNodePython } from './node_python.js';

/** Runs the script at `path`; resolves to its exit code (0, or 1 after an uncaught exception). */
export async function runPythonScript(path, { stdout = process.stdout, stderr = process.stderr } = {}) {
  const source = new Uint8Array(readFileSync(path));
  // A blocking engine: Python reads arrays synchronously (print(x)).
  await sl.init({ blocking: true });
  const py = await startNodePython({
    stdout: () => {},
    stderr: () => {},
  });
  const write = (stream) => ({ write: (bytes) => (stream.write(Buffer.from(bytes)), bytes.length) });
  py.setStdout(write(stdout));
  py.setStderr(write(stderr));
  const host = py.pyimport('shardlab_host');
  try {
    const error = host.run_script(source, basename(path));
    if (error !== undefined && error !== null) {
      stderr.write(error);
      return 1;
    }
    return 0;
  } finally {
    host.destroy();
  }
}
