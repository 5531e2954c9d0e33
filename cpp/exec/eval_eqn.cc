#include "exec/eval_eqn.h"

#include <cstring>

#include "runtime/errors.h"

namespace shardlab::exec {

HostArray literal_array(const ir::Atom& a) {
  HostArray h{a.aval, std::vector<uint32_t>(1)};
  if (a.aval.dtype == DType::kFloat32) {
    const float f = static_cast<float>(a.literal);
    std::memcpy(h.words.data(), &f, 4);
  } else {
    const int32_t i = static_cast<int32_t>(a.literal);
    std::memcpy(h.words.data(), &i, 4);
  }
  return h;
}

void eval_eqn(const ir::Eqn& e, std::vector<HostArray>& env, const ir::DeviceContext* ctx) {
  const ir::PrimitiveDef& def = ir::primitive(e.prim);
  // Operands are read in place from env; only literals get storage here.
  std::vector<HostArray> literals;
  literals.reserve(e.inputs.size());
  std::vector<ir::Tensor> in(e.inputs.size()), out(e.outputs.size());
  std::vector<const ir::Tensor*> in_ptrs;
  std::vector<ir::Tensor*> out_ptrs;
  for (size_t i = 0; i < e.inputs.size(); ++i) {
    const ir::Atom& a = e.inputs[i];
    HostArray& h = a.is_literal() ? literals.emplace_back(literal_array(a)) : env[a.var];
    in[i] = ir::Tensor{a.aval, h.words.data()};
    in_ptrs.push_back(&in[i]);
  }
  for (size_t i = 0; i < e.outputs.size(); ++i) {
    HostArray& h = env[e.outputs[i]];
    h.words.assign(static_cast<size_t>(num_elements(h.aval.shape)), 0);
    out[i] = ir::Tensor{h.aval, h.words.data()};
    out_ptrs.push_back(&out[i]);
  }
  if (def.eval) {
    def.eval(e.params, in_ptrs, out_ptrs);
  } else if (def.eval_on_device && ctx) {
    def.eval_on_device(*ctx, e.params, in_ptrs, out_ptrs);
  } else if (def.eval_on_device) {
    fail(ErrorKind::kValue, def.name, ": runs only inside a shard_map body (it needs the devices of a mesh)");
  } else {
    fail(ErrorKind::kValue, def.name, ": is run by an executor, not equation by equation");
  }
}

std::vector<HostArray> make_env(const ir::Program& p) {
  std::vector<HostArray> env(p.avals.size());
  for (size_t v = 0; v < env.size(); ++v) env[v].aval = p.avals[v];
  return env;
}

HostArray value_of(const ir::Atom& a, const std::vector<HostArray>& env) {
  return a.is_literal() ? literal_array(a) : env[a.var];
}

}  // namespace shardlab::exec
