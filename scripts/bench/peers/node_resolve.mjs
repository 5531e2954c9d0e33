// A module resolve hook for the peer processes (child.mjs registers it):
// tfjs-core's ES build, which holds its gradients (register_all_gradients),
// imports its own files without the ".js" a bundler adds and Node's loader
// requires ("./gradients" is gradients.js beside a folder of that name);
// this adds it to such an import from inside @tensorflow, and
// changes nothing else.
export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (e) {
    const unresolved = e.code === 'ERR_MODULE_NOT_FOUND' || e.code === 'ERR_UNSUPPORTED_DIR_IMPORT';
    if (!unresolved || !specifier.startsWith('.') || !context.parentURL?.includes('/node_modules/@tensorflow/')) throw e;
    return next(`${specifier}.js`, context);
  }
}
