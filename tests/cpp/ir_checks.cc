#include "ir_checks.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "exec/lockstep_program.h"
#include "exec/threaded.h"
#include "ir/transforms/jvp.h"
#include "ir/tracing/ops.h"
#include "ir/tracing/parallel_ops.h"
#include "ir/forms/print.h"
#include "ir/transforms/vjp.h"
#include "test_util.h"

namespace shardlab::ir {

bool in_body(Prim prim, const Sample& s) {
  if (primitive(prim).collective || prim == Prim::kPvary) return true;
  for (const Aval& a : s.operands)
    if (!a.vma.empty()) return true;
  return false;
}

Program sample_program(Prim prim, const Sample& s) {
  Builder b;
  std::vector<Atom> xs;
  if (!in_body(prim, s)) {
    for (const Aval& a : s.operands) xs.push_back(b.input(a));
    return b.build(b.emit(prim, s.params, xs));
  }
  auto mesh = testing::make_mesh({8}, {"i"});
  Specs in_specs;
  for (const Aval& a : s.operands) {
    const bool split = !a.vma.empty();
    Shape global = a.shape;
    if (split) global[0] *= 8;
    xs.push_back(b.input(Aval{a.dtype, global, {}, a.weak}));
    in_specs.push_back(split ? PartitionSpec{{{"i"}}} : PartitionSpec{});
  }
  ShardMapTrace t(b, mesh, in_specs, true, xs);
  const std::vector<Atom> outs = t.body().emit(prim, s.params, t.blocks());
  Specs out_specs;
  for (const Atom& o : outs) out_specs.push_back(o.aval.vma.empty() ? PartitionSpec{} : PartitionSpec{{{"i"}}});
  return b.build(t.finish(out_specs, outs));
}

using exec::as_floats;
using exec::host_f32;
using exec::interpret;

Aval f32(Shape s) { return Aval{DType::kFloat32, std::move(s), {}}; }

std::vector<float> evaluate(const Body& f, const std::vector<Aval>& avals, const std::vector<std::vector<float>>& xs) {
  Builder b;
  std::vector<Atom> in;
  for (const Aval& a : avals) in.push_back(b.input(a));
  std::vector<exec::HostArray> args;
  for (size_t i = 0; i < xs.size(); ++i) args.push_back(host_f32(avals[i].shape, xs[i]));
  return as_floats(interpret(b.build({f(b, in)}), args)[0]);
}

exec::HostArray evaluate(const Body& f, const std::vector<exec::HostArray>& args) {
  Builder b;
  std::vector<Atom> in;
  for (const exec::HostArray& a : args) in.push_back(b.input(a.aval));
  return interpret(b.build({f(b, in)}), args)[0];
}

void check_transpose(const Body& f, const std::vector<Aval>& avals, size_t linear_input) {
  Builder b;
  std::vector<Atom> in;
  for (const Aval& a : avals) in.push_back(b.input(a));
  const Atom& t = in[linear_input];
  const Atom y = f(b, in);
  const Eqn e = b.build({y}).eqns.back();
  const Atom ct = b.input(y.aval);
  // t may be several operands of the equation (add t t): its cotangent is the sum of theirs.
  std::vector<bool> linear(e.inputs.size(), false);
  for (size_t k = 0; k < e.inputs.size(); ++k) linear[k] = e.inputs[k].var == t.var;
  const auto cts = primitive(e.prim).transpose(b, e.params, {ct}, e.inputs, linear);
  MaybeAtom ct_t;
  for (size_t k = 0; k < cts.size(); ++k) {
    if (!linear[k]) continue;
    ASSERT_TRUE(cts[k].has_value()) << "no cotangent for operand " << k;
    EXPECT_EQ(cts[k]->aval, avals[linear_input]) << "the cotangent has the operand's type";
    ct_t = ct_t ? add(b, *ct_t, *cts[k]) : *cts[k];
  }
  ASSERT_TRUE(ct_t.has_value()) << "the input is not an operand of the last equation";
  std::vector<std::vector<float>> xs;
  std::vector<exec::HostArray> args;
  for (size_t i = 0; i < avals.size(); ++i) {
    xs.push_back(testing::random_floats(num_elements(avals[i].shape), i == linear_input ? 1 : 3 + i));
    args.push_back(host_f32(avals[i].shape, xs.back()));
  }
  const auto cv = testing::random_floats(num_elements(y.aval.shape), 2);
  args.push_back(host_f32(y.aval.shape, cv));
  const Program p = b.build({y, *ct_t});
  const auto outs = interpret(p, args);
  const auto ft = as_floats(outs[0]), ftc = as_floats(outs[1]);
  // With the other inputs fixed, f is affine in t when the primitive is linear
  // in several operands jointly (add, select_n): check its linear part f(t) - f(0).
  const auto& tv = xs[linear_input];
  args[linear_input] = host_f32(avals[linear_input].shape, std::vector<float>(tv.size(), 0.0f));
  const auto f0 = as_floats(interpret(p, args)[0]);
  double lhs = 0, rhs = 0;
  for (size_t i = 0; i < ft.size(); ++i) lhs += static_cast<double>(cv[i]) * (ft[i] - f0[i]);
  for (size_t i = 0; i < ftc.size(); ++i) rhs += static_cast<double>(ftc[i]) * tv[i];
  EXPECT_NEAR(lhs, rhs, 1e-4 * (1 + std::abs(lhs))) << to_text(b.build({*ct_t}));
}

void check_transpose(const Body& f, const Aval& in) { check_transpose(f, {in}, 0); }

// The JVP pass's tangent output against central finite differences of f.
void check_jvp(const Body& f, const std::vector<Aval>& avals, bool positive) {
  Builder b;
  std::vector<Atom> in;
  for (const Aval& a : avals) in.push_back(b.input(a));
  const Program primal = b.build({f(b, in)});
  const Program lin = jvp(primal);
  std::vector<std::vector<float>> xs, ts;
  for (size_t i = 0; i < avals.size(); ++i) {
    xs.push_back(testing::random_floats(num_elements(avals[i].shape), 10 + i));
    if (positive)
      for (float& v : xs.back()) v = 1.0f + 0.5f * v;
    ts.push_back(testing::random_floats(num_elements(avals[i].shape), 20 + i));
  }
  std::vector<exec::HostArray> args;
  for (size_t i = 0; i < avals.size(); ++i) args.push_back(host_f32(avals[i].shape, xs[i]));
  for (size_t i = 0; i < avals.size(); ++i) args.push_back(host_f32(avals[i].shape, ts[i]));
  const auto out = interpret(lin, args);
  const auto tangent = as_floats(out[1]);
  const float h = 1e-2f;
  auto shifted = [&](float sign) {
    std::vector<exec::HostArray> a;
    for (size_t i = 0; i < avals.size(); ++i) {
      std::vector<float> v = xs[i];
      for (size_t k = 0; k < v.size(); ++k) v[k] += sign * h * ts[i][k];
      a.push_back(host_f32(avals[i].shape, v));
    }
    return as_floats(interpret(primal, a)[0]);
  };
  const auto plus = shifted(1), minus = shifted(-1);
  for (size_t k = 0; k < tangent.size(); ++k)
    EXPECT_NEAR(tangent[k], (plus[k] - minus[k]) / (2 * h), 2e-3) << "element " << k << "\n" << to_text(lin);
}

std::vector<exec::HostArray> run_both(const Program& p, const std::shared_ptr<const Mesh>& mesh,
                                      const std::vector<exec::HostArray>& inputs,
                                      const std::vector<PartitionSpec>& specs) {
  const auto lockstep = interpret(p, inputs);
  Communicator comm(mesh);
  std::vector<ShardedArray> args;
  for (size_t i = 0; i < inputs.size(); ++i)
    args.push_back(ShardedArray::put(mesh, inputs[i].aval.dtype, inputs[i].aval.shape,
                                     i < specs.size() ? specs[i] : PartitionSpec{}, inputs[i].words.data()));
  const auto outs = exec::run_program(testing::pool(), comm, std::make_shared<exec::Executable>(std::make_shared<const Program>(p)), args);
  EXPECT_EQ(outs.size(), lockstep.size());
  // Replicas of an unchecked (check_vma=False) output may differ, as in JAX,
  // where each device keeps its own; the first device's is the value read.
  bool checked = true;
  for (const Eqn& e : p.eqns)
    if (e.prim == Prim::kShardMap && !param<bool>(e.params, "check_vma", "shard_map")) checked = false;
  for (size_t i = 0; i < outs.size() && i < lockstep.size(); ++i) {
    std::vector<uint32_t> words(lockstep[i].words.size());
    EXPECT_EQ(outs[i].shape(), lockstep[i].aval.shape) << "output " << i;
    if (outs[i].shape() != lockstep[i].aval.shape) continue;
    outs[i].get(words.data(), checked);
    EXPECT_EQ(words, lockstep[i].words) << "output " << i << ": threaded and lockstep differ\n" << to_text(p);
  }
  return lockstep;
}

void check_linear_vjp(const Program& p) {
  const Program back = vjp(p);
  const Aval& in = p.avals[p.invars[0]];
  const Aval& out = p.outvars[0].aval;
  const auto tv = testing::random_floats(num_elements(in.shape), 3);
  const auto cv = testing::random_floats(num_elements(out.shape), 4);
  const auto res = interpret(back, {host_f32(in.shape, tv), host_f32(out.shape, cv)});
  const auto ft = as_floats(res[0]), ftc = as_floats(res[1]);
  double lhs = 0, rhs = 0;
  for (size_t i = 0; i < ft.size(); ++i) lhs += static_cast<double>(cv[i]) * ft[i];
  for (size_t i = 0; i < ftc.size(); ++i) rhs += static_cast<double>(ftc[i]) * tv[i];
  EXPECT_NEAR(lhs, rhs, 1e-4 * (1 + std::abs(lhs))) << to_text(back);
}

exec::HostArray random_array(const Aval& aval, std::mt19937& rng) {
  exec::HostArray a{Aval{aval.dtype, aval.shape, {}}, {}};
  const int64_t n = num_elements(aval.shape);
  for (int64_t k = 0; k < n; ++k) {
    uint32_t w = 0;
    if (aval.dtype == DType::kFloat32) {
      const float f = std::uniform_real_distribution<float>(-2.0f, 2.0f)(rng);
      std::memcpy(&w, &f, 4);
    } else if (aval.dtype == DType::kInt32) {
      const int32_t i = std::uniform_int_distribution<int32_t>(-1, 6)(rng);
      std::memcpy(&w, &i, 4);
    } else {
      w = std::uniform_int_distribution<uint32_t>(0, 1)(rng);
    }
    a.words.push_back(w);
  }
  return a;
}

bool same_value(DType dtype, uint32_t a, uint32_t b) {
  if (a == b || dtype != DType::kFloat32) return a == b;
  float x, y;
  std::memcpy(&x, &a, 4);
  std::memcpy(&y, &b, 4);
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
  const int64_t ia = std::signbit(x) ? -int64_t(a & 0x7fffffffu) : int64_t(a);
  const int64_t ib = std::signbit(y) ? -int64_t(b & 0x7fffffffu) : int64_t(b);
  return std::llabs(ia - ib) <= 2;
}

}  // namespace shardlab::ir
