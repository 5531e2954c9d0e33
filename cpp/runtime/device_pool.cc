#include "runtime/device_pool.h"

#include <condition_variable>
#include <mutex>

#include "runtime/mesh.h"

namespace shardlab {

namespace {

// The pool and the job the calling device thread runs (null elsewhere).
thread_local const DevicePool* current_pool = nullptr;
thread_local uint32_t current_job = 0;

}  // namespace

void throw_if_cancelled() {
  if (current_pool && current_pool->cancelled(current_job))
    fail(ErrorKind::kCancelled, "the call was cancelled before it finished");
}

DevicePool::DevicePool(int threads) : slots_(kMaxPending), errors_(threads) {
  if (threads < 1 || threads > kMaxDevices)
    fail(ErrorKind::kValue, "DevicePool: threads=", threads, " must be between 1 and ", kMaxDevices);
  remaining_.store(static_cast<uint32_t>(threads));
  threads_.reserve(threads);
  for (int d = 0; d < threads; ++d) threads_.emplace_back([this, d] { device_loop(d); });
}

DevicePool::~DevicePool() {
  stopping_.store(true);
  host_event_.notify();
  event_.notify();
  for (auto& t : threads_) t.join();
}

void DevicePool::submit(Job job) {
  if (job.devices < 0 || job.devices > size())
    fail(ErrorKind::kValue, "DevicePool::submit: the job wants ", job.devices, " devices but the pool has ", size());
  const uint32_t k = submitted_.load();
  if (k - completed_.load() >= kMaxPending)
    fail(ErrorKind::kResource, "DevicePool::submit: ", kMaxPending,
         " jobs are already pending; wait for some to finish");
  slots_[k % kMaxPending] = std::move(job);
  submitted_.store(k + 1);
  host_event_.notify();
}

JobResult DevicePool::run(int devices, std::function<void(int)> fn, JobSync* sync) {
  std::mutex m;
  std::condition_variable cv;
  bool finished = false;
  JobResult result;
  submit(Job{devices, std::move(fn), sync, [&](JobResult r) {
               std::lock_guard<std::mutex> lock(m);
               result = std::move(r);
               finished = true;
               cv.notify_one();
             }});
  std::unique_lock<std::mutex> lock(m);
  cv.wait(lock, [&] { return finished; });
  return result;
}

void DevicePool::device_loop(int device) {
  for (uint32_t k = 0;; ++k) {
    // Jobs run one at a time: job k starts once job k-1 completed everywhere,
    // so per-job barrier state can be reset between them.
    auto ready = [&] { return stopping_.load() || (submitted_.load() > k && completed_.load() == k); };
    // No spin: the next job comes from the host, tens of microseconds away at
    // best, and a spinning device only takes a core from those still working.
    if (device == 0) {
      host_event_.wait(ready, false);
      event_.notify();
    } else {
      event_.wait(ready, false);
    }
    if (stopping_.load()) return;
    Job& job = slots_[k % kMaxPending];
    if (device < job.devices) {
      bool aborted = false;
      current_pool = this;
      current_job = k;
      try {
        throw_if_cancelled();  // a job cancelled while queued does not start
        job.fn(device);
      } catch (const JobAborted&) {
        aborted = true;
      } catch (const Error& e) {
        record_error(device, e.kind(), e.what());
      } catch (const std::bad_alloc&) {
        record_error(device, ErrorKind::kResource, "out of memory");
      } catch (const std::exception& e) {
        record_error(device, ErrorKind::kDevice, e.what());
      } catch (...) {
        record_error(device, ErrorKind::kDevice, "unknown exception");
      }
      current_pool = nullptr;
      if (job.sync) {
        if (errors_[device].failed) {
          job.sync->abort();
        } else if (!aborted) {
          job.sync->device_finished(device);
        }
      }
    }
    if (remaining_.fetch_sub(1) == 1) finish_job(job, k);
  }
}

void DevicePool::record_error(int device, ErrorKind kind, const char* message) noexcept {
  DeviceError& e = errors_[device];
  e.failed = true;
  e.kind = kind;
  // Copying the message allocates; when the heap is exhausted keep the
  // category and say so rather than let bad_alloc escape the device loop.
  try {
    e.message = message;
  } catch (...) {
    e.kind = ErrorKind::kResource;
  }
}

void DevicePool::finish_job(Job& job, uint32_t k) {
  JobResult result;
  if (cancelled(k)) {
    // What the devices reported is only how each was stopped.
    result.ok = false;
    result.kind = ErrorKind::kCancelled;
    result.message = "the call was cancelled before it finished";
  }
  for (int d = 0; d < size(); ++d) {
    if (errors_[d].failed && result.ok) {
      result.ok = false;
      result.device = d;
      result.kind = errors_[d].kind;
      try {
        result.message = "device " + std::to_string(d) + ": " + errors_[d].message;
      } catch (...) {
        result.kind = ErrorKind::kResource;  // no memory left even for the message
      }
    }
    errors_[d].failed = false;
    errors_[d].message.clear();
  }
  if (job.sync) job.sync->reset();
  auto done = std::move(job.done);
  job = Job{};
  remaining_.store(static_cast<uint32_t>(size()));
  const uint32_t completed = completed_.fetch_add(1) + 1;
  // Wake the devices only for a job submitted meanwhile: the next submit
  // wakes device 0, which wakes the others. Waking them now would only put
  // them back to sleep, 8 futex round trips per job. Either this load sees
  // a submit, or that submit comes after the increment above and its
  // notify finds the job ready.
  if (submitted_.load() != completed) {
    host_event_.notify();
    event_.notify();
  }
  if (done) done(std::move(result));
}

}  // namespace shardlab
