// Emscripten JS library: the clock of the device runtime's spin budgets
// (platform/platform.h now_ns). Emscripten's emscripten_get_now is declared
// in C without noexcept, so the noexcept now_ns reached it through
// JavaScript's exception handling (an invoke_d round trip) on every clock
// read of a spin loop; this import is declared noexcept on the C++ side.

mergeInto(LibraryManager.library, {
  shardlab_now_ms__deps: ['emscripten_get_now'],
  shardlab_now_ms: function () {
    return _emscripten_get_now();
  },
});
