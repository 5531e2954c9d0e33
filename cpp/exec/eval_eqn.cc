#include "exec/eval_eqn.h"

#include "exec/cond_branch.h"
#include "exec/while_loop.h"
#include "runtime/errors.h"

namespace shardlab::exec {

HostArray literal_array(const ir::Atom& a) {
  return HostArray{a.aval, {element_word(a.literal, a.aval.dtype)}};
}

void eval_tensors(const ir::Eqn& e, const std::vector<const ir::Tensor*>& in, const std::vector<ir::Tensor*>& out,
                  const ir::DeviceContext* ctx) {
  const ir::PrimitiveDef& def = ir::primitive(e.prim);
  if (def.eval) {
    def.eval(e.params, in, out);
    // Kernels compute in the lanes' types; a narrower dtype's results are rounded
    // or wrapped here, once (the collectives' reductions narrow their own: their
    // results may be one buffer the group shares).
    for (ir::Tensor* t : out)
      narrow_words(static_cast<uint32_t*>(t->data), num_elements(t->aval.shape), t->aval.dtype);
  } else if (def.eval_on_device && (ctx || def.effect)) {
    static const ir::DeviceContext kHost{-1, nullptr};  // an effect outside a shard_map body: the host's
    def.eval_on_device(ctx ? *ctx : kHost, e.params, in, out);
  } else if (def.eval_on_device) {
    fail(ErrorKind::kValue, def.name, ": runs only inside a shard_map body (it needs the devices of a mesh)");
  } else if (e.prim == ir::Prim::kWhile) {
    run_while(e, in, out, ctx);
  } else if (e.prim == ir::Prim::kCond) {
    run_cond(e, in, out, ctx);
  } else {
    fail(ErrorKind::kValue, def.name, ": is run by an executor, not equation by equation");
  }
}

void eval_eqn(const ir::Eqn& e, std::vector<HostArray>& env, const ir::DeviceContext* ctx, bool donate) {
  const ir::VarId donor = donate ? e.inputs[0].var : -1, result = donate ? e.outputs[0] : -1;
  if (donate) env[result].words = std::move(env[donor].words);
  eval_in_place(
      e, [&](ir::VarId v) { return env[v == donor ? result : v].words.data(); },
      [&](ir::VarId v) {
        HostArray& h = env[v];
        if (v != result) h.words.assign(static_cast<size_t>(num_elements(h.aval.shape)), 0);
        return ir::Tensor{h.aval, h.words.data()};
      },
      ctx);
}

std::vector<bool> donations(const ir::Program& p, size_t kept) {
  std::vector<int64_t> last(p.avals.size(), -1);  // the last equation reading each variable
  std::vector<bool> kept_var(p.avals.size(), false);
  for (size_t i = 0; i < p.eqns.size(); ++i)
    for (const ir::Atom& a : p.eqns[i].inputs)
      if (!a.is_literal()) last[a.var] = static_cast<int64_t>(i);
  for (const ir::Atom& a : p.outvars)
    if (!a.is_literal()) kept_var[a.var] = true;
  for (size_t k = 0; k < kept && k < p.invars.size(); ++k) kept_var[p.invars[k]] = true;
  std::vector<bool> out(p.eqns.size(), false);
  for (size_t i = 0; i < p.eqns.size(); ++i) {
    const ir::Eqn& e = p.eqns[i];
    if (e.prim != ir::Prim::kDynamicUpdateSlice || e.inputs[0].is_literal()) continue;
    const ir::VarId v = e.inputs[0].var;
    size_t reads = 0;
    for (const ir::Atom& a : e.inputs) reads += !a.is_literal() && a.var == v;
    out[i] = last[v] == static_cast<int64_t>(i) && !kept_var[v] && reads == 1;
  }
  return out;
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
