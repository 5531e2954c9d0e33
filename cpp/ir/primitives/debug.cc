#include "ir/primitives/debug.h"

#include "ir/tracing/builder.h"
#include "ir/tracing/ops.h"
#include "ir/transforms/batching.h"
#include "runtime/debug_log.h"

namespace shardlab::ir {

std::vector<Aval> Def<Prim::kDebugCallback>::shape(const Params&, const std::vector<Aval>&) { return {}; }

void Def<Prim::kDebugCallback>::eval_on_device(const DeviceContext& ctx, const Params& p,
                                               const std::vector<const Tensor*>& in, const std::vector<Tensor*>&) {
  DebugRecord r{param<int64_t>(p, "callback", kName), ctx.device, {}, 0};
  for (const Tensor* t : in) {
    const auto* w = static_cast<const uint32_t*>(t->data);
    r.values.push_back(DebugValue{t->aval.dtype, t->aval.shape, std::vector<uint32_t>(w, w + num_elements(t->aval.shape))});
  }
  DebugLog::instance().record(std::move(r));
}

// The call itself is emitted on the primals by the JVP (as every primal
// equation); it has no outputs, hence no tangents.
std::vector<MaybeAtom> Def<Prim::kDebugCallback>::jvp(Builder&, const Params&, const std::vector<Atom>&,
                                                      const std::vector<Atom>&, const std::vector<MaybeAtom>&) {
  return {};
}

std::vector<MaybeAtom> Def<Prim::kDebugCallback>::transpose(Builder&, const Params&, const std::vector<MaybeAtom>&,
                                                            const std::vector<Atom>& inputs, const std::vector<bool>&) {
  return std::vector<MaybeAtom>(inputs.size());
}

// Example k's values: each batched operand's slice k along its batch dimension.
std::vector<Batched> Def<Prim::kDebugCallback>::batch(Builder& b, const Params& p, const std::vector<Batched>& in,
                                                      int64_t size) {
  for (int64_t k = 0; k < size; ++k) {
    std::vector<Atom> example;
    for (const Batched& x : in) {
      if (!x.batched()) {
        example.push_back(x.value);
        continue;
      }
      std::vector<int64_t> start(x.value.aval.shape.size(), 0), limit = x.value.aval.shape;
      start[static_cast<size_t>(x.dim)] = k;
      limit[static_cast<size_t>(x.dim)] = k + 1;
      example.push_back(squeeze(b, slice(b, x.value, start, limit), {x.dim}));
    }
    b.emit(Prim::kDebugCallback, p, example);
  }
  return {};
}

Sample Def<Prim::kDebugCallback>::sample() { return {{samples::f32({2, 3})}, {{"callback", int64_t{0}}, {"fmt", std::string("{0}")}}}; }

}  // namespace shardlab::ir
