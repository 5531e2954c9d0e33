#include "ir/core/aval.h"

#include <algorithm>
#include <iterator>

#include "runtime/sizes.h"

namespace shardlab::ir {

std::string Aval::str() const {
  std::string s = std::string(dtype_name(dtype)) + "[" + sharding.shape_text(shape) + "]";
  // As JAX's _vma_ur_str: {V:data}, {V:(data,model)} for several axes, then U: and R:.
  std::string braces;
  if (!vma.empty()) {
    std::string axes;
    for (size_t i = 0; i < vma.size(); ++i) axes += (i ? "," : "") + vma[i];
    braces = vma.size() == 1 ? "V:" + axes : "V:(" + axes + ")";
  }
  const std::string state = sharding.state_text();
  if (!state.empty()) braces += (braces.empty() ? "" : ", ") + state;
  return braces.empty() ? s : s + "{" + braces + "}";
}

void check_aval(const Aval& aval, std::string_view fn, std::string_view what) {
  checked_bytes(aval.dtype, aval.shape, fn, what);
}

std::vector<std::string> vma_union(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::string> out;
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

std::vector<std::string> vma_union(const std::vector<Aval>& avals) {
  std::vector<std::string> out;
  for (const Aval& a : avals) out = vma_union(out, a.vma);
  return out;
}

}  // namespace shardlab::ir
