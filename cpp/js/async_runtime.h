// The wasm host side of the device pool: jobs are submitted from the JS
// thread that loaded the module (a page's main thread, or a worker) and never
// wait there; when a job ends, its last device posts the result back to that
// thread, where the JS loader resolves or rejects the job's Promise.
#pragma once

#include <emscripten/val.h>

#include <atomic>
#include <memory>
#include <string>

#include "exec/threaded.h"
#include "ir/core/program.h"
#include "runtime/collectives/communicator.h"
#include "runtime/device_pool.h"
#include "runtime/sharded_array.h"

namespace shardlab::js {

/// A mesh together with the communicator its jobs use.
struct DeviceMesh {
  std::shared_ptr<const Mesh> mesh;
  std::shared_ptr<Communicator> comm;
};

/// Builds a DeviceMesh from JS arrays of axis sizes and names.
DeviceMesh make_device_mesh(const emscripten::val& shape, const emscripten::val& names);

/// Converts a JS spec (an array of null | name | [names]) to a PartitionSpec.
PartitionSpec spec_from_js(const emscripten::val& spec);
/// Converts a PartitionSpec to JS (an array of null | name | [names]).
emscripten::val spec_to_js(const PartitionSpec& spec);
/// A JS value as messages quote it: 2.5, NaN, '3', undefined.
std::string quote_js(const emscripten::val& v);
/// Whether `d` is an integer a JS number holds exactly (Number.isSafeInteger).
bool is_safe_integer(double d);
/// Converts a JS array of dimensions to a Shape. A JS number may be 2.5, NaN,
/// -1, Infinity or 1e300, which a cast to int64_t would make 2, or undefined
/// behaviour: a ValueError names `fn`, `what` (the argument) and the entry
/// unless each is an integer in 0..2^53 - 1. The JS API checks first
/// (web/lib/api/shape.js); this is the line of defence for every other caller.
Shape shape_from_js(const emscripten::val& shape, const char* fn, const char* what);
/// Converts a Shape to a JS array.
emscripten::val shape_to_js(const Shape& shape);

/// Copies a host array at `ptr` (wasm heap) into a new sharded array.
ShardedArray put_array(const DeviceMesh& mesh, const std::string& dtype, const emscripten::val& shape,
                       const emscripten::val& spec, uintptr_t ptr);
/// Assembles `array` into the host buffer at `ptr` (checking replicas if asked).
void get_array(const ShardedArray& array, uintptr_t ptr, bool check_replicas);

/// Bytes of the wasm heap in use (malloc's count less the free blocks the
/// allocation caches and the large blocks' spans hold), for leak tests.
double heap_bytes_in_use();
/// The wasm heap's current size in bytes (it grows; it never shrinks).
double heap_bytes();

/// Stops the timeline (runtime/timeline.h) and returns {packed, names,
/// dropped}: per span 7 numbers in a Float64Array (device, kind (SpanKind),
/// depth, index, its name's position in `names`, begin and end in
/// milliseconds on the clock of performance.now()), and how many spans were
/// dropped past the cap (web/lib/runtime/devices.js unpacks them).
emscripten::val take_timeline();
/// The debug calls recorded since the last take (runtime/debug_log.h), in
/// its order: {records: [{callback, device, values: [{dtype, shape, bits}]}], dropped}.
emscripten::val take_debug_records();

/// How a job ended, where a thread that may block can wait for it: `state`
/// is 0 while it runs, then 1 (ok) or 2 (failed, with `kind` and `message`).
struct JobStatus {
  std::atomic<uint32_t> state{0};
  ErrorKind kind = ErrorKind::kDevice;
  std::string message;
};

/// The outputs of a submitted program; valid once its job has ended.
struct ProgramRun {
  std::shared_ptr<std::vector<ShardedArray>> outputs;
  std::shared_ptr<JobStatus> status;
  /// The address of status->state, for JS's Atomics.wait (Node, or a worker).
  uintptr_t state_ptr() const { return reinterpret_cast<uintptr_t>(&status->state); }
  /// The failed job's error category ("ValueError", ...).
  std::string error_kind() const;
  /// The failed job's message.
  std::string error_message() const { return status->message; }
  /// Number of outputs (once the job has ended).
  int size() const { return static_cast<int>(outputs->size()); }
  /// Output i (a new handle sharing its blocks).
  ShardedArray output(int i) const { return outputs->at(static_cast<size_t>(i)); }
};

/// The device pool of this module instance, with Promise-style completion.
class AsyncRuntime {
 public:
  /// Starts `devices` persistent device threads (1..8; the pool of workers has 8).
  explicit AsyncRuntime(int devices);
  /// Number of device threads.
  int devices() const { return pool_.size(); }
  /// Submits `program` on the sharded arrays `inputs` (a JS array) over the
  /// devices of `mesh`; returns at once. When the job ends, the device
  /// thread that ends it posts {shardlabJobDone: [id, ok, kind, message]} to
  /// the main thread.
  ProgramRun submit_program(int id, const DeviceMesh& mesh, std::shared_ptr<exec::Executable> exe,
                            const emscripten::val& inputs);
  /// Checks `program` against `inputs` (a JS array of sharded arrays) and the
  /// mesh and prepares its job (submit_program's first half).
  exec::ProgramJob prepare_program(const DeviceMesh& mesh, std::shared_ptr<exec::Executable> exe,
                                   const emscripten::val& inputs) const;
  /// Submits a prepared program's job (submit_program's second half).
  ProgramRun submit_job(int id, const DeviceMesh& mesh, exec::ProgramJob job);
  /// Submits `fn` as a job on the first `devices` device threads with
  /// `sync` (which must outlive the job); completion is reported as for
  /// submit_program, and in `status` if given. Every job goes through here.
  void submit(int id, int devices, std::function<void(int)> fn, JobSync* sync,
              std::shared_ptr<JobStatus> status = nullptr);
  /// Cancels every job submitted so far (DevicePool::cancel): each ends
  /// with a CancelledError, reported as any job's end.
  void cancel() { pool_.cancel(); }

 private:
  DevicePool pool_;
};

}  // namespace shardlab::js
