// DevicePool: jobs run once per device, in order; failures are reported with
// the device and message, release every barrier, and leave the pool usable.
#include "runtime/device_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>

#include "runtime/collectives/communicator.h"
#include "test_util.h"

namespace shardlab {
namespace {

using testing::make_mesh;
using testing::pool;

TEST(DevicePool, RunsOneCallPerDevice) {
  for (int n : {1, 2, 4, 8}) {
    std::vector<std::atomic<int>> calls(8);
    const JobResult r = pool().run(n, [&](int d) { calls[d].fetch_add(1); });
    EXPECT_TRUE(r.ok);
    for (int d = 0; d < 8; ++d) EXPECT_EQ(calls[d].load(), d < n ? 1 : 0);
  }
}

TEST(DevicePool, QueuedJobsRunInOrderAndCallDoneOnce) {
  std::atomic<int> done{0};
  std::vector<int> order;
  std::atomic<int> seq{0};
  for (int j = 0; j < 20; ++j)
    pool().submit(Job{8,
                      [&, j](int d) {
                        if (d == 0) order.push_back(j);
                      },
                      nullptr,
                      [&](JobResult r) {
                        EXPECT_TRUE(r.ok);
                        done.fetch_add(1);
                      }});
  // A blocking run after them completes only once they all did.
  pool().run(8, [&](int) { seq.fetch_add(1); });
  EXPECT_EQ(done.load(), 20);
  ASSERT_EQ(order.size(), 20u);
  for (int j = 0; j < 20; ++j) EXPECT_EQ(order[j], j);
}

TEST(DevicePool, ErrorNamesTheLowestFailingDevice) {
  const JobResult r = pool().run(8, [](int d) {
    if (d == 3 || d == 6) throw std::runtime_error("boom on " + std::to_string(d));
  });
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.device, 3);
  EXPECT_EQ(r.message, "device 3: boom on 3");
  EXPECT_TRUE(pool().run(8, [](int) {}).ok);
}

// A device fails between two collectives while the others wait in the second:
// they must all be released, and the next job on the same communicator works.
TEST(DevicePool, FailureMidProgramReleasesEveryBarrier) {
  auto mesh = make_mesh({8}, {"data"});
  Communicator comm(mesh);
  const AxisGroup g = mesh->axis_group({"data"}, "psum");
  for (int failing : {0, 5, 7}) {
    for (int64_t count : {int64_t{1}, int64_t{1} << 16}) {  // staging path and in-place path
      std::vector<std::vector<float>> bufs(8, std::vector<float>(count, 1.0f));
      const JobResult r = pool().run(
          8,
          [&](int d) {
            comm.all_reduce(d, g, ReduceOp::kSum, DType::kFloat32, bufs[d].data(), bufs[d].data(), count);
            if (d == failing) throw Error(ErrorKind::kValue, "injected failure");
            comm.all_reduce(d, g, ReduceOp::kSum, DType::kFloat32, bufs[d].data(), bufs[d].data(), count);
          },
          &comm);
      EXPECT_FALSE(r.ok);
      EXPECT_EQ(r.device, failing);
      EXPECT_EQ(r.kind, ErrorKind::kValue);
      EXPECT_EQ(r.message, "device " + std::to_string(failing) + ": injected failure");
      // The runtime is usable: a fresh psum gives the right answer.
      std::vector<std::vector<float>> ok(8, std::vector<float>(count, 2.0f));
      EXPECT_TRUE(pool()
                      .run(
                          8,
                          [&](int d) {
                            comm.all_reduce(d, g, ReduceOp::kSum, DType::kFloat32, ok[d].data(), ok[d].data(), count);
                          },
                          &comm)
                      .ok);
      for (int d = 0; d < 8; ++d) EXPECT_EQ(ok[d][count - 1], 16.0f);
    }
  }
}

TEST(DevicePool, DeviceSkippingACollectiveIsAnErrorNotAHang) {
  auto mesh = make_mesh({2, 4}, {"data", "model"});
  Communicator comm(mesh);
  const AxisGroup g = mesh->axis_group({"model"}, "psum");
  std::vector<float> bufs(8, 1.0f);
  const JobResult r = pool().run(
      8,
      [&](int d) {
        if (d == 6) return;  // leaves without the psum its group (devices 4..7) waits in
        comm.all_reduce(d, g, ReduceOp::kSum, DType::kFloat32, &bufs[d], &bufs[d], 1);
      },
      &comm);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.device, 4);
  EXPECT_NE(r.message.find("device 6 finished its program without reaching this collective"), std::string::npos)
      << r.message;
  EXPECT_EQ(r.kind, ErrorKind::kDevice);
}

TEST(DevicePool, MismatchedCollectivesAreReported) {
  auto mesh = make_mesh({8}, {"data"});
  Communicator comm(mesh);
  const AxisGroup g = mesh->axis_group({"data"}, "psum");
  std::vector<std::vector<float>> bufs(8, std::vector<float>(8, 1.0f));
  const JobResult r = pool().run(
      8,
      [&](int d) {
        comm.all_reduce(d, g, ReduceOp::kSum, DType::kFloat32, bufs[d].data(), bufs[d].data(), d == 2 ? 4 : 8);
      },
      &comm);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.message.find("runs psum with 16 bytes"), std::string::npos) << r.message;
}

TEST(DevicePool, BadArgumentsFromRunCollective) {
  auto mesh = make_mesh({8}, {"data"});
  Communicator comm(mesh);
  std::vector<float> host(8, 1.0f);
  auto x = ShardedArray::put(mesh, DType::kFloat32, {8}, PartitionSpec{{{"data"}}}, host.data());
  auto run_perm = [&](ir::IntLists perm) {
    return testing::error_message([&] {
      testing::run_collective(comm, x, "ppermute", {{"axis_name", std::vector<std::string>{"data"}}, {"perm", perm}},
                              PartitionSpec{{{"data"}}});
    });
  };
  EXPECT_NE(run_perm({{0, 1}, {0, 2}}).find("source 0 appears twice"), std::string::npos);
  EXPECT_NE(run_perm({{0, 8}}).find("indices must be in 0..7"), std::string::npos);
  EXPECT_NE(run_perm({{0, 1}, {2, 1}}).find("destination 1 appears twice"), std::string::npos);
  const auto psum = [&](std::vector<std::string> axes) {
    return testing::run_collective(comm, x, "psum", {{"axis_name", axes}}, PartitionSpec{});
  };
  EXPECT_THROW(psum({"data", "data"}), Error);
  EXPECT_THROW(psum({"model"}), Error);
  // The pool still works.
  auto y = psum({"data"});
  float out = 0;
  y.get(&out, true);
  EXPECT_EQ(out, 8.0f);
}

}  // namespace
}  // namespace shardlab
