// The `jax` and `numpy` packages' files bundled by Vite, for startPython (host.js) in the
// page's sandbox worker, which has no connection to fetch them.

const modules = import.meta.glob(['./jax/**/*.py', './numpy/**/*.py', './shardlab_host.py'], { eager: true, query: '?raw', import: 'default' });

/** {path relative to web/python: text} of every .py file of the packages and the host's helper. */
export function pythonFiles() {
  return Object.fromEntries(Object.entries(modules).map(([path, text]) => [path.slice(2), text]));
}
