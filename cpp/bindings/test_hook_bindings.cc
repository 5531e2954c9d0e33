// Embind declarations of the test hooks (test build of the module only; no logic: it lives in cpp/js/test_hooks).
#include <emscripten/bind.h>

#include "js/test_hooks.h"

EMSCRIPTEN_BINDINGS(shardlab_test_hooks) {
  emscripten::function("submitFault", &shardlab::js::submit_fault);
  emscripten::function("submitRepeated", &shardlab::js::submit_repeated);
}
