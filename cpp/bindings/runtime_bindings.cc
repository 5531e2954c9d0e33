// Embind declarations of the device runtime (no logic: conversions live in cpp/js).
#include <emscripten/bind.h>

#include "runtime/device_pool.h"
#include "runtime/event.h"
#include "runtime/large_blocks.h"
#include "platform/platform.h"
#include "runtime/timeline.h"
#include "js/async_runtime.h"

namespace {

using namespace emscripten;
using shardlab::ShardedArray;
using shardlab::js::AsyncRuntime;
using shardlab::js::DeviceMesh;

std::string spec_str(const ShardedArray& a) { return a.spec().str(); }
val spec_entries(const ShardedArray& a) { return shardlab::js::spec_to_js(a.spec()); }
val global_shape(const ShardedArray& a) { return shardlab::js::shape_to_js(a.shape()); }
std::string dtype_of(const ShardedArray& a) { return shardlab::dtype_long_name(a.dtype()); }
double block_elements(const ShardedArray& a) { return static_cast<double>(a.block_elements()); }
uintptr_t block_ptr(const ShardedArray& a, int device) { return reinterpret_cast<uintptr_t>(a.block(device)); }
int mesh_size(const DeviceMesh& m) { return m.mesh->size(); }
std::string mesh_str(const DeviceMesh& m) { return m.mesh->str(); }

}  // namespace

EMSCRIPTEN_BINDINGS(shardlab_runtime) {
  class_<DeviceMesh>("DeviceMesh")
      .constructor(&shardlab::js::make_device_mesh)
      .function("size", &mesh_size)
      .function("toString", &mesh_str);
  class_<ShardedArray>("ShardedArray")
      .class_function("put", &shardlab::js::put_array)
      .function("get", &shardlab::js::get_array)
      .function("shape", &global_shape)
      .function("blockElements", &block_elements)
      .function("blockPtr", &block_ptr)
      .function("dtype", &dtype_of)
      .function("spec", &spec_str)
      .function("specEntries", &spec_entries);
  class_<AsyncRuntime>("AsyncRuntime")
      .constructor<int>()
      .function("devices", &AsyncRuntime::devices)
      .function("cancel", &AsyncRuntime::cancel);
  constant("maxPendingJobs", shardlab::DevicePool::kMaxPending);
  function("armTimeline", &shardlab::Timeline::arm);
  function("takeTimeline", &shardlab::js::take_timeline);
  function("takeDebugRecords", &shardlab::js::take_debug_records);
  function("heapBytesInUse", &shardlab::js::heap_bytes_in_use);
  function("heapBytes", &shardlab::js::heap_bytes);
  function("releaseFreeSpans", &shardlab::release_free_spans);
  function("deviceMemoryBytes",
           optional_override([] { return static_cast<double>(shardlab::platform::device_memory_bytes()); }));
}
