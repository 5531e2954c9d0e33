// Emscripten JS library: the fused multiply-add matrix micro-kernel of
// platform/platform.h (platform::fused_micro_kernel), as a second, tiny wasm
// module that every thread instantiates over the module's own memory when
// its JS loads; the main module imports its function, so wasm calls wasm.
// Why a second module: SIMD128 has no FMA, and relaxed SIMD's
// f32x4.relaxed_madd (what Chromium and Node >= 22 run natively) is emitted
// by Emscripten 3.1.6's clang 14 only under its pre-standard opcode, which
// engines reject. So the kernel is assembled here, in the standard encoding.
// Where the engine lacks relaxed SIMD, or runs relaxed_madd unfused (a CPU
// without FMA), it is not offered and C++ uses its SIMD128 kernel.

mergeInto(LibraryManager.library, {
  // {fn, fused}: the kernel instance of this thread.
  $shardlabFusedKernel: '=(' + function () {
    // LEB128 encodings (unsigned; signed for i32.const) and a section or
    // vector with its length prefixed.
    const uleb = (n) => {
      const out = [];
      do {
        let b = n & 0x7f;
        n >>>= 7;
        if (n) b |= 0x80;
        out.push(b);
      } while (n);
      return out;
    };
    const sleb = (n) => {
      const out = [];
      for (;;) {
        const b = n & 0x7f;
        n >>= 7;
        if ((n === 0 && !(b & 0x40)) || (n === -1 && b & 0x40)) return [...out, b];
        out.push(b | 0x80);
      }
    };
    const vec = (items) => [...uleb(items.length), ...items.flat()];
    const sized = (bytes) => [...uleb(bytes.length), ...bytes];
    const section = (id, bytes) => [id, ...sized(bytes)];
    const name = (s) => sized([...s].map((c) => c.charCodeAt(0)));
    // Instructions (the few the kernel uses).
    const get = (i) => [0x20, i];
    const set = (i) => [0x21, i];
    const tee = (i) => [0x22, i];
    const i32 = (n) => [0x41, ...sleb(n)]; // i32.const
    // (No destructuring in this function: Emscripten 3.1.6's minifier mis-renames it.)
    const ADD = [0x6a], SUB = [0x6b], SHL = [0x74], LT_S = [0x48]; // on i32
    const BLOCK = [0x02, 0x40], LOOP = [0x03, 0x40], IF = [0x04, 0x40], END = [0x0b], BR_IF = 0x0d; // (no results)
    const simd = (op, ...imm) => [0xfd, ...uleb(op), ...imm];
    const load = (offset) => simd(0x00, 2, ...uleb(offset)); // v128.load align=4
    const splat = (offset) => simd(0x09, 2, ...uleb(offset)); // v128.load32_splat
    const store = (offset) => simd(0x0b, 2, ...uleb(offset)); // v128.store
    const madd = simd(0x105); // f32x4.relaxed_madd: a * b + c

    // The tile: ROWS x 8 (platform::kFusedRows; 12 accumulators, 2 of B and
    // a broadcast of A fill V8's 15 vector registers for wasm; a 4x8 tile ran
    // about 15% slower in L1). Locals: params kc 0, ap 1, bp 2, c 3, ldc 4,
    // accumulate 5; the accumulators c00 c01 c10 ... are v128 locals from 6;
    // then b0, b1 and a (v128) and the row pointers (i32). Rows are ldc floats apart.
    const ROWS = 6;
    const KC = 0, AP = 1, BP = 2, C = 3, LDC = 4, ACC = 5, B0 = 6 + 2 * ROWS, B1 = B0 + 1, A = B0 + 2;
    const row = (r) => (r === 0 ? C : A + r); // the address of output row r
    const acc = (r, h) => 6 + 2 * r + h;
    const body = [];
    for (let r = 1; r < ROWS; r++) body.push(get(row(r - 1)), get(LDC), i32(2), SHL, ADD, set(row(r))); // row r-1 + 4 ldc bytes
    // Wasm zeroes locals, so the accumulators start at 0 unless accumulating.
    body.push(get(ACC), IF);
    for (let r = 0; r < ROWS; r++) for (const h of [0, 1]) body.push(get(row(r)), load(16 * h), set(acc(r, h)));
    body.push(END);
    // for k in 0..kc: c[r][h] = a[k][r] * b[k][h] + c[r][h], one rounding each.
    body.push(BLOCK, get(KC), i32(1), LT_S, [BR_IF, 0], LOOP);
    body.push(get(BP), load(0), set(B0), get(BP), load(16), set(B1));
    for (let r = 0; r < ROWS; r++) {
      body.push(get(AP), splat(4 * r), set(A));
      for (const h of [0, 1]) body.push(get(A), get(h ? B1 : B0), get(acc(r, h)), madd, set(acc(r, h)));
    }
    body.push(get(AP), i32(4 * ROWS), ADD, set(AP), get(BP), i32(32), ADD, set(BP));
    body.push(get(KC), i32(1), SUB, tee(KC), [BR_IF, 0], END, END); // repeat while --kc
    for (let r = 0; r < ROWS; r++) for (const h of [0, 1]) body.push(get(row(r)), get(acc(r, h)), store(16 * h));
    body.push(END);
    const kernel = sized([...vec([[2 * ROWS + 3, 0x7b], [ROWS - 1, 0x7f]]), ...body.flat()]); // the locals, then the code
    // Whether relaxed_madd rounds once here: (1 + 2^-23)^2 - (1 + 2^-22) is
    // 2^-46 fused and 0 when the product is rounded first.
    const f32 = (x) => [...new Uint8Array(new Float32Array([x]).buffer)];
    const c = (x) => simd(0x0c, ...f32(x), ...f32(x), ...f32(x), ...f32(x)); // v128.const
    const lane0 = simd(0x1f, 0); // f32x4.extract_lane 0
    const probe = sized([0, c(1 + 2 ** -23), c(1 + 2 ** -23), c(-(1 + 2 ** -22)), madd, lane0, [0x43, ...f32(0)], [0x5c], END].flat()); // ... f32.ne 0

    const none = { fn: () => abort('the fused micro-kernel is not available'), fused: false };
    if (!wasmMemory) return none; // a module that defines its memory itself (no -sIMPORTED_MEMORY)
    const shared = typeof SharedArrayBuffer !== 'undefined' && wasmMemory.buffer instanceof SharedArrayBuffer;
    const bytes = new Uint8Array([
      ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
      ...section(1, vec([[0x60, ...vec([0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f]), 0], [0x60, 0, 1, 0x7f]])),
      ...section(2, vec([[...name('env'), ...name('memory'), 0x02, shared ? 0x03 : 0x01, 0, ...uleb(65536)]])),
      ...section(3, vec([0, 1])),
      ...section(7, vec([[...name('kernel'), 0, 0], [...name('fused'), 0, 1]])),
      ...section(10, vec([kernel, probe])),
    ]);
    if (!WebAssembly.validate(bytes)) return none;
    const exports = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory: wasmMemory } }).exports;
    return exports.fused() ? { fn: exports.kernel, fused: true } : none;
  }.toString() + ')()',

  shardlab_fused_micro_kernel__deps: ['$shardlabFusedKernel'],
  shardlab_fused_micro_kernel__import: true,
  shardlab_fused_micro_kernel: '=shardlabFusedKernel.fn',

  shardlab_fused_kernel_available__deps: ['$shardlabFusedKernel'],
  shardlab_fused_kernel_available: function () {
    return shardlabFusedKernel.fused ? 1 : 0;
  },
});
