// psum latency and throughput of the native build, measured exactly as the
// wasm build is (scripts/bench/collectives.mjs): one job runs `reps`
// back-to-back psums (a one-psum shard_map program on the program path, run
// `reps` times in one job: exec/repeated_job.h), and the time per psum is the job's time divided
// by reps, so the figure is the collective, not job start.
#include <benchmark/benchmark.h>

#include <chrono>
#include <vector>

#include "exec/repeated_job.h"
#include "exec/threaded.h"
#include "ir/tracing/parallel_ops.h"

namespace shardlab {
namespace {

// How many psums one job runs for `n` floats per device (about 30-100 ms of work).
int reps_for(int64_t n) { return n <= 1024 ? 2000 : n <= 65536 ? 400 : n <= (1 << 20) ? 40 : 10; }

void BM_Psum(benchmark::State& state) {
  static DevicePool pool(8);
  const int64_t n = state.range(0);
  auto mesh = std::make_shared<const Mesh>(std::vector<int>{8}, std::vector<std::string>{"data"});
  Communicator comm(mesh);
  std::vector<float> host(static_cast<size_t>(n) * 8, 1.0f);
  auto x = ShardedArray::put(mesh, DType::kFloat32, {8 * n}, PartitionSpec{{{"data"}}}, host.data());
  const int reps = reps_for(n);
  auto psum = std::make_shared<exec::Executable>(std::make_shared<const ir::Program>(
      ir::collective_program(mesh, ir::Aval{DType::kFloat32, {8 * n}, {}}, x.spec(), "psum",
                             {{"axis_name", std::vector<std::string>{"data"}}}, PartitionSpec{}, true)));
  const exec::ProgramJob job = exec::prepare_program(comm, psum, {x});  // replicated, as psum's result
  const auto psums = exec::repeated(job, comm, reps);
  pool.run(8, psums, &comm);  // warm up: touch every page once
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    const JobResult r = pool.run(8, psums, &comm);
    const auto t1 = std::chrono::steady_clock::now();
    if (!r.ok) state.SkipWithError(r.message.c_str());
    state.SetIterationTime(std::chrono::duration<double>(t1 - t0).count() / reps);
  }
  state.counters["floats_per_device"] = static_cast<double>(n);
  state.counters["reps"] = reps;
}

BENCHMARK(BM_Psum)
    ->Arg(0)  // an empty psum: one barrier round, the floor under every small collective
    ->Arg(1)
    ->Arg(1 << 10)
    ->Arg(1 << 16)
    ->Arg(1 << 20)
    ->Arg(1 << 22)
    ->UseManualTime()
    ->Iterations(1)
    ->Repetitions(7)
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace shardlab

BENCHMARK_MAIN();
