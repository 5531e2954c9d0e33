// The core's program builders (cpp/js/trace_api.h, bound in
// cpp/bindings/program_bindings.cc), as the API's tracer opens them: a
// top-level trace, and each kind of trace nested in another (its `parent`,
// a core trace), whose body the tracer then fills. The engine is the one
// part of the JS that names the wasm module's classes; every builder here
// returns a core object the caller deletes when done.

/** The program builders of one module instance. */
export class CoreTraces {
  constructor(Module) {
    this._Module = Module;
  }

  /** A top-level trace: inputs are declared on it, and build() makes its Program. */
  top() {
    return new this._Module.Trace();
  }

  /** A call's body traced as a function of `atoms` (jit, grad, vjp, custom derivatives); an `isolated` one reads no outer value. */
  function(parent, atoms, isolated = false) {
    return new this._Module.FunctionTrace(parent, atoms, isolated);
  }

  /** A shard_map's body over `mesh` (a core mesh), its inputs split by `specs`. */
  shardMap(parent, mesh, specs, checkVma, atoms) {
    return new this._Module.ShardMapTrace(parent, mesh, specs, checkVma, atoms);
  }

  /** lax.cond / lax.switch: branches traced one after another over `operands`. */
  cond(parent, operands) {
    return new this._Module.CondTrace(parent, operands);
  }

  /** lax.scan over `xs` with carry `carry`, `length` steps, `reverse` or not. */
  scan(parent, carry, xs, length, reverse) {
    return new this._Module.ScanTrace(parent, carry, xs, length, reverse);
  }

  /** lax.while_loop from `init`: its condition traced, then its body. */
  whileLoop(parent, init) {
    return new this._Module.WhileTrace(parent, init);
  }

  /** vmap over `atoms`, each mapped along its entry of `axes` (null: not mapped), `axisSize` wide, its axis named `axisName` (null: unnamed). */
  vmap(parent, atoms, axes, axisSize, axisName) {
    return new this._Module.VmapTrace(parent, atoms, axes, axisSize, axisName);
  }

  /** A Program read from its JSON form (jax.export's), checked against `limits`. */
  programFromJson(json, limits) {
    return this._Module.programFromJson(json, limits);
  }

  /** The jax.lax functions of the core's registry: each one's name and arguments (lax/parallel.js). */
  laxFunctions() {
    return this._Module.laxFunctions();
  }
}
