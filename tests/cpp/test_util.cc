#include "test_util.h"

#include <gtest/gtest.h>

#include "exec/threaded.h"
#include "ir/tracing/parallel_ops.h"
#include "runtime/errors.h"

namespace shardlab::testing {

DevicePool& pool() {
  static DevicePool p(8);
  return p;
}

std::shared_ptr<const Mesh> make_mesh(std::vector<int> shape, std::vector<std::string> names) {
  return std::make_shared<const Mesh>(std::move(shape), std::move(names));
}

std::vector<float> random_floats(size_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (auto& x : v) x = dist(gen);
  return v;
}

ShardedArray run_collective(Communicator& comm, const ShardedArray& in, const std::string& name, const ir::Params& args,
                            const PartitionSpec& out_spec, bool check_vma) {
  auto program = std::make_shared<const ir::Program>(ir::collective_program(
      comm.mesh_ptr(), ir::Aval{in.dtype(), in.shape(), {}}, in.spec(), name, args, out_spec, check_vma));
  return exec::run_program(pool(), comm, std::make_shared<exec::Executable>(program), {in}).at(0);
}

std::string error_message(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

ErrorKind error_kind(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.kind();
  }
  ADD_FAILURE() << "no error";
  return ErrorKind::kValue;
}

std::vector<int64_t> unravel(int64_t linear, const Shape& shape) {
  std::vector<int64_t> idx(shape.size());
  for (int k = static_cast<int>(shape.size()) - 1; k >= 0; --k) {
    idx[k] = linear % shape[k];
    linear /= shape[k];
  }
  return idx;
}

int64_t ravel(const std::vector<int64_t>& idx, const Shape& shape) {
  int64_t linear = 0;
  for (size_t k = 0; k < shape.size(); ++k) linear = linear * shape[k] + idx[k];
  return linear;
}

}  // namespace shardlab::testing
