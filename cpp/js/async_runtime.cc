#include "async_runtime.h"

#include <emscripten/emscripten.h>
#include <emscripten/heap.h>
#include <malloc.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <unordered_map>

#include "js_errors.h"
#include "runtime/debug_log.h"
#include "runtime/errors.h"
#include "platform/platform.h"
#include "runtime/large_blocks.h"
#include "runtime/sizes.h"
#include "runtime/timeline.h"
#include "js/thread_cache_alloc.h"

namespace shardlab::js {

using emscripten::val;

std::string quote_js(const val& v) {
  if (v.isString()) return "'" + v.as<std::string>() + "'";
  return val::global("String")(v).as<std::string>();
}

bool is_safe_integer(double d) {
  return std::isfinite(d) && std::trunc(d) == d && std::fabs(d) <= static_cast<double>(kMaxDimension);
}

Shape shape_from_js(const val& shape, const char* fn, const char* what) {
  if (!val::global("Array").call<bool>("isArray", shape))
    fail(ErrorKind::kValue, fn, ": ", what, " must be an array of dimensions (integers >= 0), got ", quote_js(shape));
  Shape s;
  const int n = shape["length"].as<int>();
  for (int i = 0; i < n; ++i) {
    const val d = shape[i];
    const double x = d.isNumber() ? d.as<double>() : NAN;
    if (!is_safe_integer(x) || x < 0)
      fail(ErrorKind::kValue, fn, ": ", what, "[", i, "] is ", quote_js(d), "; dimensions must be integers in 0..",
           kMaxDimension);
    s.push_back(static_cast<int64_t>(x));
  }
  return s;
}

val shape_to_js(const Shape& shape) {
  val a = val::array();
  for (int64_t d : shape) a.call<void>("push", static_cast<double>(d));
  return a;
}

PartitionSpec spec_from_js(const val& spec) {
  PartitionSpec p;
  const int n = spec["length"].as<int>();
  for (int i = 0; i < n; ++i) {
    const val e = spec[i];
    std::vector<std::string> names;
    if (e.isString()) {
      names.push_back(e.as<std::string>());
    } else if (!e.isNull() && !e.isUndefined()) {
      const int m = e["length"].as<int>();
      for (int j = 0; j < m; ++j) names.push_back(e[j].as<std::string>());
    }
    p.entries.push_back(std::move(names));
  }
  return p;
}

DeviceMesh make_device_mesh(const val& shape, const val& names) {
  return with_js_errors([&] {
    std::vector<int> sizes;
    // Sizes past int are clamped, so that the mesh reports them as too many devices.
    for (int64_t d : shape_from_js(shape, "Mesh", "shape"))
      sizes.push_back(static_cast<int>(std::min<int64_t>(d, INT_MAX)));
    std::vector<std::string> axis_names;
    const int n = names["length"].as<int>();
    for (int i = 0; i < n; ++i) axis_names.push_back(names[i].as<std::string>());
    auto mesh = std::make_shared<const Mesh>(std::move(sizes), std::move(axis_names));
    return DeviceMesh{mesh, std::make_shared<Communicator>(mesh)};
  });
}

double heap_bytes_in_use() {
  // Blocks parked in the allocation caches and unused parts of spans are free, not in use.
  const LargeBlockStats spans = large_block_stats();
  return static_cast<double>(mallinfo().uordblks) - static_cast<double>(thread_cache_bytes()) -
         static_cast<double>(spans.reserved - spans.in_use);
}

val take_timeline() {
  // Packed, not one JS object per span: a recording can hold 8 x 16384 spans,
  // and an Embind call per field would make taking it a long task on a page.
  const Recording r = Timeline::take();
  std::vector<double> packed;
  packed.reserve(r.spans.size() * 7);
  std::unordered_map<const char*, int> ids;  // names are static strings: one id per pointer
  val names = val::array();
  for (const Span& s : r.spans) {
    const auto [at, added] = ids.emplace(s.name, static_cast<int>(ids.size()));
    if (added) names.call<void>("push", std::string(s.name));
    for (double x : {static_cast<double>(s.device), static_cast<double>(s.kind), static_cast<double>(s.depth),
                     static_cast<double>(s.index), static_cast<double>(at->second), static_cast<double>(s.begin_ns) / 1e6,
                     static_cast<double>(s.end_ns) / 1e6})
      packed.push_back(x);
  }
  val out = val::object();
  // A copy the JS side owns (slice): the heap's view would change as it grows.
  out.set("packed", val(emscripten::typed_memory_view(packed.size(), packed.data())).call<val>("slice"));
  out.set("names", names);
  out.set("dropped", static_cast<double>(r.dropped));
  return out;
}

val take_debug_records() {
  const int64_t dropped = DebugLog::instance().take_dropped();
  val records = val::array();
  for (const DebugRecord& r : DebugLog::instance().take()) {
    val values = val::array();
    for (const DebugValue& v : r.values) {
      val value = val::object();
      value.set("dtype", std::string(dtype_long_name(v.dtype)));
      val shape = val::array();
      for (int64_t d : v.shape) shape.call<void>("push", static_cast<double>(d));
      value.set("shape", shape);
      // A copy the JS side owns, as the lanes' bits (the engine views them as the dtype's typed array).
      value.set("bits", val(emscripten::typed_memory_view(v.words.size(), v.words.data())).call<val>("slice"));
      values.call<void>("push", value);
    }
    val record = val::object();
    record.set("callback", static_cast<double>(r.callback));
    record.set("device", r.device);
    record.set("values", values);
    records.call<void>("push", record);
  }
  val out = val::object();
  out.set("records", records);
  out.set("dropped", static_cast<double>(dropped));
  return out;
}

double heap_bytes() { return static_cast<double>(emscripten_get_heap_size()); }

val spec_to_js(const PartitionSpec& spec) {
  val a = val::array();
  for (const auto& e : spec.entries) {
    if (e.empty()) {
      a.call<void>("push", val::null());
    } else if (e.size() == 1) {
      a.call<void>("push", e[0]);
    } else {
      val names = val::array();
      for (const auto& n : e) names.call<void>("push", n);
      a.call<void>("push", names);
    }
  }
  return a;
}

ShardedArray put_array(const DeviceMesh& mesh, const std::string& dtype, const val& shape, const val& spec,
                       uintptr_t ptr) {
  return with_js_errors([&] {
    return ShardedArray::put(mesh.mesh, dtype_from_name(dtype, "put"), shape_from_js(shape, "put", "shape"),
                             spec_from_js(spec), reinterpret_cast<const void*>(ptr));
  });
}

void get_array(const ShardedArray& array, uintptr_t ptr, bool check_replicas) {
  with_js_errors([&] { array.get(reinterpret_cast<void*>(ptr), check_replicas); });
}

namespace {
int checked_devices(int devices) {
  if (devices < 1 || devices > 8)
    with_js_errors([&] { fail(ErrorKind::kValue, "init: devices=", devices, " must be between 1 and 8"); });
  return devices;
}
}  // namespace

AsyncRuntime::AsyncRuntime(int devices) : pool_(checked_devices(devices)) {}

namespace {

// Runs on the device thread that ends the job: posts the result from its
// worker straight to the main thread, where the JS loader (devices.js) takes
// {shardlabJobDone: [id, ok, kind, message pointer]} off the worker's
// messages. Not through Emscripten's proxying queue
// (MAIN_THREAD_ASYNC_EM_ASM): that queue has one global lock, held across
// the postMessage that wakes the main thread, so the main thread, woken,
// often found it still held by a device thread that had lost its core, and a
// browser's main thread cannot sleep on a lock: it spun for about 80 µs per
// call in Chromium.
void post_result(int id, const JobResult& r) {
  // The message is copied to the heap; JS reads and frees it.
  char* msg = nullptr;
  if (!r.ok) {
    msg = static_cast<char*>(std::malloc(r.message.size() + 1));
    std::memcpy(msg, r.message.c_str(), r.message.size() + 1);
  }
  const char* kind = r.ok ? "" : error_kind_name(r.kind);
  EM_ASM({ postMessage({shardlabJobDone : [ $0, $1, UTF8ToString($2), $3 ]}); }, id, r.ok ? 1 : 0, kind, msg);
}

}  // namespace

void AsyncRuntime::submit(int id, int devices, std::function<void(int)> fn, JobSync* sync,
                          std::shared_ptr<JobStatus> status) {
  pool_.submit(Job{devices, std::move(fn), sync, [id, status](JobResult r) {
                     if (status) {
                       status->kind = r.kind;
                       status->message = r.message;
                       status->state.store(r.ok ? 1 : 2, std::memory_order_release);
                       platform::futex_wake_all(&status->state);
                     }
                     post_result(id, r);
                   }});
}

std::string ProgramRun::error_kind() const { return error_kind_name(status->kind); }

exec::ProgramJob AsyncRuntime::prepare_program(const DeviceMesh& mesh, std::shared_ptr<exec::Executable> exe,
                                               const val& inputs) const {
  if (mesh.mesh->size() > pool_.size())
    fail(ErrorKind::kValue, "run: the mesh ", mesh.mesh->str(), " needs ", mesh.mesh->size(), " devices but the runtime has ",
         pool_.size());
  std::vector<ShardedArray> args;
  const int n = inputs["length"].as<int>();
  for (int i = 0; i < n; ++i) args.push_back(inputs[i].as<ShardedArray>());
  return exec::prepare_program(*mesh.comm, std::move(exe), args);
}

ProgramRun AsyncRuntime::submit_job(int id, const DeviceMesh& mesh, exec::ProgramJob job) {
  auto comm = mesh.comm;  // the job holds the communicator alive
  auto status = std::make_shared<JobStatus>();
  submit(id, mesh.mesh->size(), [comm, fn = std::move(job.fn)](int d) { fn(d); }, comm.get(), status);
  return ProgramRun{job.outputs, status};
}

ProgramRun AsyncRuntime::submit_program(int id, const DeviceMesh& mesh, std::shared_ptr<exec::Executable> exe,
                                        const val& inputs) {
  return with_js_errors([&] { return submit_job(id, mesh, prepare_program(mesh, std::move(exe), inputs)); });
}

}  // namespace shardlab::js
