#include "ir/transforms/lower.h"

#include <optional>

#include "ir/tracing/ops.h"

namespace shardlab::ir {

namespace {

// XLA's compilation rewrites some patterns of equations, and JAX's results
// carry those rewrites, so the lowered program makes them too. Each is
// found from one walk of p that records who makes each value and how often
// it is used; per equation of p:
struct Rewrites {
  // A transpose that only swaps a dot_general's two groups of free
  // dimensions (the batch ones staying first) is the product with its
  // operands swapped: (x·y)ᵀ = yᵀ·xᵀ, with each element the same products
  // summed in the same order of the contracted index (the kernels sum in
  // ascending k whatever the operands' order; natively Eigen may block
  // differently). JAX's transpose rule for dot_general emits exactly that
  // pair for a weight's gradient; the lowered program makes it one product,
  // not a product and a copy. For a dot_general whose only use is such a
  // transpose, that transpose's index (else -1).
  std::vector<int> fused;
  // XLA's algebraic simplifier rewrites the logarithm of an exponential, a
  // power or a square root (its HandleLog): ln(exp(A)) => A, ln(pow(A, B))
  // => ln(|A|)·B, ln(sqrt(A)) => ln(A)·0.5 and ln(rsqrt(A)) => ln(A)·-0.5, so
  // under jit JAX's jnp.log(jnp.exp(100.)) is 100 (not inf) and
  // jnp.log(jnp.sqrt(x)) rounds as 0.5·ln(x) (docs/faq.rst). For such a log,
  // the equation making its operand (else -1).
  std::vector<int> log_of;
  // It runs a float division by a constant as the product with the
  // constant's reciprocal, rounded to the dtype (A / c => A * (1/c), its
  // InvertConstant): jnp.mean of 12 elements summing to 46 is 46 * f32(1/12)
  // = 3.8333335, not 46 / 12 = 3.8333333. The constant is a literal, or in a
  // shard_map body the pvary of one (JAX 0.11's type for it; no HLO op, so
  // XLA sees the constant). For such a division, the constant.
  std::vector<std::optional<Atom>> divisor;

  /// Whether equation i is rewritten (as a product, a transpose's, a log or a division).
  bool at(size_t i) const { return fused[i] >= 0 || log_of[i] >= 0 || divisor[i].has_value(); }
};

// dims: a dot_general's dimension_numbers; x and y its operands' ranks.
// Whether `perm` swaps its result's free dimensions, [batch, x free, y free] to [batch, y free, x free].
bool swaps_free_dims(const IntLists& dims, int64_t x_rank, int64_t y_rank, const std::vector<int64_t>& perm) {
  const auto nb = static_cast<int64_t>(dims[2].size());
  const int64_t nx = x_rank - nb - static_cast<int64_t>(dims[0].size());
  const int64_t ny = y_rank - nb - static_cast<int64_t>(dims[1].size());
  std::vector<int64_t> swap;
  for (int64_t k = 0; k < nb; ++k) swap.push_back(k);
  for (int64_t k = 0; k < ny; ++k) swap.push_back(nb + nx + k);
  for (int64_t k = 0; k < nx; ++k) swap.push_back(nb + k);
  return perm == swap;
}

Rewrites rewrites(const Program& p) {
  const size_t n = p.eqns.size();
  Rewrites r{std::vector<int>(n, -1), std::vector<int>(n, -1), std::vector<std::optional<Atom>>(n)};
  std::vector<int> uses(p.avals.size(), 0), made_by(p.avals.size(), -1);
  for (const Atom& a : p.outvars)
    if (!a.is_literal()) ++uses[a.var];
  for (size_t i = 0; i < n; ++i) {
    for (const Atom& a : p.eqns[i].inputs)
      if (!a.is_literal()) ++uses[a.var];
    for (VarId v : p.eqns[i].outputs) made_by[v] = static_cast<int>(i);
  }
  // The equation making operand k of e (null for a literal or an input).
  auto maker = [&](const Eqn& e, size_t k) -> const Eqn* {
    const Atom& a = e.inputs[k];
    return a.is_literal() || made_by[a.var] < 0 ? nullptr : &p.eqns[static_cast<size_t>(made_by[a.var])];
  };
  for (size_t i = 0; i < n; ++i) {
    const Eqn& e = p.eqns[i];
    if (e.prim == Prim::kTranspose) {
      const Eqn* d = maker(e, 0);
      if (d && d->prim == Prim::kDotGeneral && uses[e.inputs[0].var] == 1 &&
          swaps_free_dims(param<IntLists>(d->params, "dimension_numbers", "dot_general"), d->inputs[0].aval.ndim(),
                          d->inputs[1].aval.ndim(), param<std::vector<int64_t>>(e.params, "permutation", "transpose")))
        r.fused[static_cast<size_t>(made_by[e.inputs[0].var])] = static_cast<int>(i);
    } else if (e.prim == Prim::kLog) {
      const Eqn* d = maker(e, 0);
      if (d && (d->prim == Prim::kExp || d->prim == Prim::kPow || d->prim == Prim::kSqrt || d->prim == Prim::kRsqrt))
        r.log_of[i] = made_by[e.inputs[0].var];
    } else if (e.prim == Prim::kDiv && !e.inputs[0].is_literal() && is_float(e.inputs[1].aval.dtype)) {
      const Eqn* d = maker(e, 1);
      if (e.inputs[1].is_literal()) {
        r.divisor[i] = e.inputs[1];
      } else if (d && d->prim == Prim::kPvary && d->inputs.size() == 1 && d->inputs[0].is_literal()) {
        r.divisor[i] = d->inputs[0];
      }
    }
  }
  return r;
}

// The rewritten log of `inner`'s result (Rewrites::log_of), on inner's operands `xs`.
Atom simplified_log(Builder& b, const Eqn& inner, const std::vector<Atom>& xs) {
  const Atom& a = xs[0];
  auto scaled_log = [&](const Atom& x, const Atom& by) { return mul(b, unary(b, Prim::kLog, x), by); };
  switch (inner.prim) {
    case Prim::kExp:
      return a;
    case Prim::kPow:
      return scaled_log(unary(b, Prim::kAbs, a), xs[1]);
    case Prim::kSqrt:
      return scaled_log(a, Atom::constant(0.5, a.aval.dtype, true));
    default:  // rsqrt
      return scaled_log(a, Atom::constant(-0.5, a.aval.dtype, true));
  }
}

bool needs_lowering(const Program& p) {
  const Rewrites r = rewrites(p);
  for (size_t i = 0; i < p.eqns.size(); ++i) {
    const Eqn& e = p.eqns[i];
    if (primitive(e.prim).lower || r.at(i)) return true;
    for (const Program* q : subprograms(e))
      if (needs_lowering(*q)) return true;
  }
  return false;
}

// `params` with every program in them lowered (a shard_map's body, a while's cond and body).
Params lowered_params(Params params) {
  for (Param& q : params) {
    if (auto* one = std::get_if<ProgramRef>(&q.value)) *one = lower(*one);
    if (auto* many = std::get_if<Programs>(&q.value))
      for (ProgramRef& r : *many) r = lower(r);
  }
  return params;
}

}  // namespace

std::vector<Atom> emit_lowered(Builder& b, const Program& p, const std::vector<Atom>& args) {
  std::vector<Atom> env(p.avals.size());
  for (size_t i = 0; i < p.invars.size(); ++i) env[p.invars[i]] = args[i];
  auto value = [&](const Atom& a) { return a.is_literal() ? a : env[a.var]; };
  const Rewrites r = rewrites(p);
  std::vector<const Eqn*> absorbed(p.eqns.size(), nullptr);  // per transpose: the product it becomes
  for (size_t i = 0; i < p.eqns.size(); ++i)
    if (r.fused[i] >= 0) absorbed[static_cast<size_t>(r.fused[i])] = &p.eqns[i];
  for (size_t i = 0; i < p.eqns.size(); ++i) {
    const Eqn& e = p.eqns[i];
    if (r.fused[i] >= 0) continue;  // emitted at its transpose
    std::vector<Atom> xs;
    for (const Atom& a : e.inputs) xs.push_back(value(a));
    const PrimitiveDef& def = primitive(e.prim);
    std::vector<Atom> ys;
    if (const Eqn* dot = absorbed[i]) {
      const auto& dims = param<IntLists>(dot->params, "dimension_numbers", "dot_general");
      // Typed as the transpose it stands for (its out_sharding, given or not, was in the other order).
      Sharding typed = p.avals[e.outputs[0]].sharding;
      if (typed.mesh.empty()) typed.mesh = param<Sharding>(dot->params, "out_sharding", "dot_general").mesh;
      ys = {dot_general(b, value(dot->inputs[1]), value(dot->inputs[0]), {dims[1], dims[0], dims[3], dims[2]}, typed)};
    } else if (r.log_of[i] >= 0) {
      const Eqn& inner = p.eqns[static_cast<size_t>(r.log_of[i])];
      std::vector<Atom> operands;
      for (const Atom& a : inner.inputs) operands.push_back(value(a));
      ys = {simplified_log(b, inner, operands)};
    } else if (r.divisor[i]) {
      const Atom& c = *r.divisor[i];
      ys = {b.emit1(Prim::kMul, {}, {xs[0], Atom::constant(1.0f / static_cast<float>(c.literal), c.aval.dtype, c.aval.weak)})};
    } else if (def.lower) {
      ys = def.lower(b, e.params, xs);
    } else {
      ys = b.emit(e.prim, subprograms(e).empty() ? e.params : lowered_params(e.params), xs);
    }
    for (size_t j = 0; j < e.outputs.size(); ++j) env[e.outputs[j]] = ys[j];
  }
  std::vector<Atom> outs;
  for (const Atom& a : p.outvars) outs.push_back(value(a));
  return outs;
}

ProgramRef lower(const ProgramRef& p) {
  if (!needs_lowering(*p)) return p;
  Builder b(p->scope, nullptr);
  std::vector<Atom> ins;
  for (VarId v : p->invars) ins.push_back(b.input(p->avals[v]));
  return std::make_shared<const Program>(b.build(emit_lowered(b, *p, ins)));
}

}  // namespace shardlab::ir
