// The device pool: persistent device threads (in wasm, the pooled Web Workers)
// that wait for jobs and run one function per device. The host submits a job
// and is told from a device thread when it is done, so a browser's main thread
// never waits; native hosts may also block in run().
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "runtime/errors.h"
#include "runtime/event.h"

namespace shardlab {

/// How a job ended: ok, or the error of the lowest-numbered failing device.
struct JobResult {
  bool ok = true;                       ///< every device finished without error
  int device = -1;                      ///< the failing device reported
  ErrorKind kind = ErrorKind::kDevice;  ///< its error's category
  std::string message;                  ///< "device 3: <what it threw>"
};

/// Lets the pool release a job's barriers when a device fails or leaves.
class JobSync {
 public:
  virtual ~JobSync() = default;
  /// Device d returned from the job's function without an error.
  virtual void device_finished(int device) = 0;
  /// Some device failed: every waiter must leave its barrier.
  virtual void abort() = 0;
  /// The job is over: clear per-job state before the next one starts.
  virtual void reset() = 0;
};

/// One unit of work: fn(d) for devices 0..devices-1.
struct Job {
  int devices = 0;                      ///< how many devices take part
  std::function<void(int)> fn;          ///< the per-device function
  JobSync* sync = nullptr;              ///< the job's communicator, if it has collectives
  std::function<void(JobResult)> done;  ///< called once, on a device thread, at the end
};

/// Persistent device threads running submitted jobs in order, one at a time.
class DevicePool {
 public:
  /// Starts `threads` device threads (at most kMaxDevices). Does not wait for them.
  explicit DevicePool(int threads);
  /// Stops and joins the threads (native hosts only; a browser page terminates workers instead).
  ~DevicePool();
  DevicePool(const DevicePool&) = delete;
  DevicePool& operator=(const DevicePool&) = delete;

  /// Number of device threads.
  int size() const { return static_cast<int>(threads_.size()); }

  /// Queues a job without blocking; job.done runs on a device thread when it
  /// ends. Throws a ResourceError when kMaxPending jobs are already queued.
  void submit(Job job);

  /// Cancels every job submitted so far: one still queued does not start, and
  /// a running one fails with a CancelledError as soon as each of its devices
  /// reaches a loop iteration (throw_if_cancelled) or a barrier its peers
  /// left. Later jobs run as usual. Callable from any thread.
  void cancel() { cancel_below_.store(submitted_.load()); }

  /// Runs a job and waits for it (never on a browser main thread).
  JobResult run(int devices, std::function<void(int)> fn, JobSync* sync = nullptr);

  /// Most jobs that may wait in the queue.
  static constexpr uint32_t kMaxPending = 64;

 private:
  void device_loop(int device);
  void finish_job(Job& job, uint32_t k);
  // Whether job k was cancelled (job numbers wrap around).
  bool cancelled(uint32_t k) const { return static_cast<int32_t>(k - cancel_below_.load()) < 0; }
  friend void throw_if_cancelled();
  // Records device's failure without throwing (the device loop must not).
  void record_error(int device, ErrorKind kind, const char* message) noexcept;

  struct alignas(64) DeviceError {
    bool failed = false;
    ErrorKind kind = ErrorKind::kDevice;
    std::string message;
  };

  std::vector<Job> slots_;
  std::vector<DeviceError> errors_;
  alignas(64) std::atomic<uint32_t> submitted_{0};
  alignas(64) std::atomic<uint32_t> completed_{0};
  alignas(64) std::atomic<uint32_t> remaining_{0};
  std::atomic<bool> stopping_{false};
  // Jobs numbered below this one are cancelled (cancel()).
  alignas(64) std::atomic<uint32_t> cancel_below_{0};
  // The host wakes only device 0 (host_event_), which wakes the others
  // (event_): a notify that wakes 8 threads at once made the waking thread
  // lose its core to them, which cost a browser's main thread ~200 µs per
  // submit in wasm.
  EventCount host_event_;
  EventCount event_;
  std::vector<std::thread> threads_;
};

/// Throws a CancelledError when the job the calling device thread runs was
/// cancelled (DevicePool::cancel); does nothing on any other thread. Loops
/// whose trip count depends on data call it at every iteration, so a loop
/// that never ends cannot hold the devices past the host's time limit.
void throw_if_cancelled();

}  // namespace shardlab
