// --pre-js: under Node, Emscripten 3.1.6 tries fetch() on the .wasm file path,
// which Node's fetch rejects; read the binary from disk instead (once, on the
// thread that loads the module; pthread workers receive the compiled module).
if (typeof process === 'object' && typeof require === 'function' && !Module['wasmBinary'] &&
    !Module['ENVIRONMENT_IS_PTHREAD'] && typeof __filename === 'string') {
  Module['wasmBinary'] = require('fs').readFileSync(__filename.replace(/\.js$/, '.wasm'));
}
