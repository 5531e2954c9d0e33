// libFuzzer target: a mesh, a PartitionSpec and a shape made from the input
// bytes (axis sizes, names known and unknown, repeated axes, dimensions of
// any int64 value) either make a layout whose blocks tile the shape, or the
// mesh, spec or shape is refused with a shardlab::Error — never a crash.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "ir/primitives/shard_map.h"
#include "runtime/errors.h"
#include "runtime/partition_spec.h"

namespace {

// Reads the input a byte (or eight) at a time; zeros once it runs out.
struct Bytes {
  const uint8_t* p;
  size_t n;
  uint8_t byte() { return n ? (--n, *p++) : 0; }
  int64_t i64() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = (v << 8) | byte();
    return static_cast<int64_t>(v);
  }
};

const char* const kNames[] = {"data", "model", "x", "", "data"};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace shardlab;
  Bytes in{data, size};
  std::vector<int> mesh_shape;
  std::vector<std::string> mesh_names;
  for (int a = 0, axes = in.byte() % 4; a < axes; ++a) {
    mesh_shape.push_back(static_cast<int8_t>(in.byte()));
    mesh_names.push_back(kNames[in.byte() % 5]);
  }
  PartitionSpec spec;
  for (int d = 0, dims = in.byte() % 5; d < dims; ++d) {
    std::vector<std::string> entry;
    for (int k = 0, m = in.byte() % 3; k < m; ++k) entry.push_back(kNames[in.byte() % 5]);
    spec.entries.push_back(entry);
  }
  Shape shape;
  for (int d = 0, rank = in.byte() % 5; d < rank; ++d) shape.push_back(in.byte() & 1 ? in.i64() : in.byte());
  try {
    const Mesh mesh(mesh_shape, mesh_names);
    const Layout layout = make_layout(mesh, shape, spec, "fuzz");
    // The blocks tile the global shape: block * splits == global along every dimension.
    for (size_t d = 0; d < shape.size(); ++d)
      if (layout.block[d] * layout.dim_axes[d].size != shape[d]) std::abort();
    for (int dev = 0; dev < mesh.size(); ++dev) {
      const Dims index = layout.block_index(mesh, dev);
      for (size_t d = 0; d < shape.size(); ++d)
        if (index[d] < 0 || index[d] >= layout.dim_axes[d].size) std::abort();
    }
    ir::block_aval(mesh, ir::Aval{DType::kFloat32, shape, {}}, spec, true, "fuzz");
  } catch (const Error&) {
  }
  return 0;
}
