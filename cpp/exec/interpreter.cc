#include "exec/interpreter.h"

#include <cstring>

#include "runtime/errors.h"

namespace shardlab::exec {

namespace {

// A literal broadcast to its (rank-0) aval.
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

}  // namespace

std::vector<HostArray> interpret(const ir::Program& p, const std::vector<HostArray>& inputs) {
  if (inputs.size() != p.invars.size())
    fail(ErrorKind::kValue, "interpret: the program takes ", p.invars.size(), " inputs, got ", inputs.size());
  std::vector<HostArray> env(p.avals.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ir::Aval& want = p.avals[p.invars[i]];
    if (inputs[i].aval.dtype != want.dtype || inputs[i].aval.shape != want.shape)
      fail(ErrorKind::kShape, "interpret: input ", i, " is ", inputs[i].aval.str(), " but the program expects ",
           want.str());
    env[p.invars[i]] = inputs[i];
  }
  auto value = [&](const ir::Atom& a) { return a.is_literal() ? literal_array(a) : env[a.var]; };
  for (const ir::Eqn& e : p.eqns) {
    // Operands are read in place from env; only literals get storage here.
    std::vector<HostArray> literals;
    literals.reserve(e.inputs.size());
    std::vector<ir::Tensor> in(e.inputs.size()), out(e.outputs.size());
    std::vector<const ir::Tensor*> in_ptrs;
    std::vector<ir::Tensor*> out_ptrs;
    for (size_t i = 0; i < e.inputs.size(); ++i) {
      const ir::Atom& a = e.inputs[i];
      HostArray& h = a.is_literal() ? literals.emplace_back(literal_array(a)) : env[a.var];
      in[i] = ir::Tensor{h.aval, h.words.data()};
      in_ptrs.push_back(&in[i]);
    }
    for (size_t i = 0; i < e.outputs.size(); ++i) {
      HostArray& h = env[e.outputs[i]];
      h.aval = p.avals[e.outputs[i]];
      h.words.assign(static_cast<size_t>(num_elements(h.aval.shape)), 0);
      out[i] = ir::Tensor{h.aval, h.words.data()};
      out_ptrs.push_back(&out[i]);
    }
    ir::primitive(e.prim).eval(e.params, in_ptrs, out_ptrs);
  }
  std::vector<HostArray> results;
  for (const ir::Atom& a : p.outvars) results.push_back(value(a));
  return results;
}

HostArray host_f32(const Shape& shape, const std::vector<float>& values) {
  HostArray h{ir::Aval{DType::kFloat32, shape, {}}, std::vector<uint32_t>(values.size())};
  std::memcpy(h.words.data(), values.data(), values.size() * 4);
  return h;
}

std::vector<float> as_floats(const HostArray& a) {
  std::vector<float> v(a.words.size());
  std::memcpy(v.data(), a.words.data(), v.size() * 4);
  return v;
}

HostArray host_i32(const Shape& shape, const std::vector<int32_t>& values) {
  HostArray h{ir::Aval{DType::kInt32, shape, {}}, std::vector<uint32_t>(values.size())};
  std::memcpy(h.words.data(), values.data(), values.size() * 4);
  return h;
}

std::vector<int32_t> as_ints(const HostArray& a) {
  std::vector<int32_t> v(a.words.size());
  std::memcpy(v.data(), a.words.data(), v.size() * 4);
  return v;
}

}  // namespace shardlab::exec
