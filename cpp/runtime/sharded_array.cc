#include "runtime/sharded_array.h"

#include <cstring>
#include <sstream>

#include "runtime/errors.h"
#include "runtime/sizes.h"
#include "runtime/strided_copy.h"

namespace shardlab {

namespace {

// The view of device d's block inside the row-major global array.
StridedView global_view(const Mesh& mesh, const Layout& layout, int device) noexcept {
  StridedView v{strides_of(layout.global), 0};
  const auto idx = layout.block_index(mesh, device);
  for (size_t i = 0; i < idx.size(); ++i) v.offset += idx[i] * layout.block[i] * v.strides[i];
  return v;
}

}  // namespace

void read_block(const Mesh& mesh, const Layout& layout, int device, const void* global, void* block) noexcept {
  strided_copy(layout.block, global, global_view(mesh, layout, device), block,
               StridedView{strides_of(layout.block), 0});
}

void write_block(const Mesh& mesh, const Layout& layout, int device, const void* block, void* global) noexcept {
  strided_copy(layout.block, block, StridedView{strides_of(layout.block), 0}, global,
               global_view(mesh, layout, device));
}

namespace {

// Each device's block index (the constructor compares them pairwise).
std::vector<Dims> block_indices(const Mesh& mesh, const Layout& layout) {
  std::vector<Dims> index;
  index.reserve(static_cast<size_t>(mesh.size()));
  for (int d = 0; d < mesh.size(); ++d) index.push_back(layout.block_index(mesh, d));
  return index;
}

std::string index_str(const Dims& idx) {
  std::ostringstream out;
  out << "(";
  for (size_t i = 0; i < idx.size(); ++i) out << (i ? ", " : "") << idx[i];
  out << (idx.size() == 1 ? ",)" : ")");
  return out.str();
}

}  // namespace

ShardedArray::ShardedArray(std::shared_ptr<const Mesh> mesh, DType dtype, const Shape& global,
                           const PartitionSpec& spec, uint32_t share_mask)
    : s_(std::make_shared<State>()) {
  Layout layout = make_layout(*mesh, global, spec, "ShardedArray");
  // The whole array must fit (get assembles it), so a block does too.
  checked_bytes(dtype, global, "ShardedArray", "the array");
  const uint64_t bytes = static_cast<uint64_t>(num_elements(layout.block)) * kElemBytes;
  std::vector<std::shared_ptr<Buffer>> blocks;
  if (layout.split_mask == 0 && share_mask == kShareAll) {
    // Every device holds all of it, in one buffer (a program's replicated
    // outputs): no block indices to compare. In wasm every call here that
    // may throw is a round trip through JavaScript, paid on every jit call.
    blocks.assign(static_cast<size_t>(mesh->size()), std::make_shared<Buffer>(bytes, 0));
  } else {
    const std::vector<Dims> index = block_indices(*mesh, layout);
    blocks.reserve(static_cast<size_t>(mesh->size()));
    for (int d = 0; d < mesh->size(); ++d) {
      std::shared_ptr<Buffer> shared;
      for (int e = 0; e < d && !shared; ++e) {
        bool same = index[e] == index[d];
        for (int a = 0; a < mesh->ndim() && same; ++a)
          if (!(share_mask & (1u << a)) && mesh->coord(e, a) != mesh->coord(d, a)) same = false;
        if (same) shared = blocks[e];
      }
      blocks.push_back(shared ? shared : std::make_shared<Buffer>(bytes, d));
    }
  }
  *s_ = State{std::move(mesh), dtype, spec, std::move(layout), std::move(blocks)};
}

ShardedArray ShardedArray::put(std::shared_ptr<const Mesh> mesh, DType dtype, const Shape& global,
                               const PartitionSpec& spec, const void* host) {
  ShardedArray a(std::move(mesh), dtype, global, spec);
  for (int d = 0; d < a.mesh().size(); ++d) {
    read_block(a.mesh(), a.layout(), d, host, a.block(d));
    // Host data of a narrower dtype comes in lanes of any value: rounded or wrapped to the dtype here.
    narrow_words(static_cast<uint32_t*>(a.block(d)), a.block_elements(), dtype);
  }
  return a;
}

void ShardedArray::get(void* host, bool check_replicas) const {
  const size_t bytes = static_cast<size_t>(block_elements()) * kElemBytes;
  // The first device holding each block writes it; the others are its replicas.
  for (int d = 0; d < mesh().size(); ++d) {
    const int owner = layout().owner(mesh(), d);
    if (owner == d) {
      write_block(mesh(), layout(), d, block(d), host);
    } else if (check_replicas && !shares_block(owner, d) && std::memcmp(block(owner), block(d), bytes) != 0) {
      const auto* a = static_cast<const uint32_t*>(block(owner));
      const auto* b = static_cast<const uint32_t*>(block(d));
      int64_t i = 0;
      while (a[i] == b[i]) ++i;
      std::ostringstream va, vb;
      if (is_float(dtype())) {
        float fa, fb;
        std::memcpy(&fa, a + i, 4);
        std::memcpy(&fb, b + i, 4);
        va << fa;
        vb << fb;
      } else {
        va << static_cast<int32_t>(a[i]);
        vb << static_cast<int32_t>(b[i]);
      }
      fail(ErrorKind::kSharding, "get: devices ", owner, " and ", d, " should hold the same replica of block ",
           index_str(layout().block_index(mesh(), d)), " of a ", dtype_name(dtype()), shape_str(layout().global), " array with ", spec().str(),
           " on ", mesh().str(), ", but differ at element ", i, " of the block (", va.str(), " vs ", vb.str(),
           "); the values vary along a mesh axis the spec does not mention");
    }
  }
}

}  // namespace shardlab
