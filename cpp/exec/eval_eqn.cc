#include "exec/eval_eqn.h"

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
  } else if (def.eval_on_device && ctx) {
    def.eval_on_device(*ctx, e.params, in, out);
  } else if (def.eval_on_device) {
    fail(ErrorKind::kValue, def.name, ": runs only inside a shard_map body (it needs the devices of a mesh)");
  } else if (e.prim == ir::Prim::kWhile) {
    run_while(e, in, out, ctx);
  } else {
    fail(ErrorKind::kValue, def.name, ": is run by an executor, not equation by equation");
  }
}

void eval_eqn(const ir::Eqn& e, std::vector<HostArray>& env, const ir::DeviceContext* ctx) {
  eval_in_place(
      e, [&](ir::VarId v) { return env[v].words.data(); },
      [&](ir::VarId v) {
        HostArray& h = env[v];
        h.words.assign(static_cast<size_t>(num_elements(h.aval.shape)), 0);
        return ir::Tensor{h.aval, h.words.data()};
      },
      ctx);
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
