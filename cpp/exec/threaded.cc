#include "exec/threaded.h"

#include <cstring>
#include <optional>

#include "exec/eval_eqn.h"
#include "ir/primitives/shard_map.h"
#include "runtime/errors.h"

namespace shardlab::exec {

namespace {

// Arrays on any mesh over the same devices can feed the program: blocks laid
// out by another mesh's names are assembled whole, then split as needed.
bool same_devices(const Mesh& a, const Mesh& b) { return a.size() == b.size(); }

// The state of one run, shared by the device threads. Device 0 alone writes
// the top level; the communicator's sync orders its writes before the other
// devices read them.
struct Run {
  std::shared_ptr<const ir::Program> program;
  std::shared_ptr<const Mesh> mesh;
  std::vector<HostArray> env;                      // top-level values, whole
  std::vector<bool> whole;                         // env[v] holds v's value
  std::vector<std::optional<ShardedArray>> split;  // top-level values as blocks
  std::vector<ShardedArray> staged;                // the current shard_map's outputs
  std::shared_ptr<std::vector<ShardedArray>> outputs = std::make_shared<std::vector<ShardedArray>>();

  // The whole value of top-level operand a, assembled from blocks if needed.
  const HostArray& whole_value(const ir::Atom& a, HostArray& scratch) {
    if (a.is_literal()) return scratch = literal_array(a);
    if (!whole[a.var]) {
      HostArray& h = env[a.var];
      h.words.resize(static_cast<size_t>(num_elements(h.aval.shape)));
      split[a.var]->get(h.words.data(), false);
      whole[a.var] = true;
    }
    return env[a.var];
  }

  // Device 0: allocate the outputs of shard_map e (one buffer per distinct block).
  void stage(const ir::Eqn& e) {
    const auto& out_specs = ir::param<ir::Specs>(e.params, "out_specs", "shard_map");
    staged.clear();
    for (size_t j = 0; j < e.outputs.size(); ++j) {
      const ir::Aval& aval = env[e.outputs[j]].aval;
      staged.emplace_back(mesh, aval.dtype, aval.shape, out_specs[j]);
    }
    const auto& in_specs = ir::param<ir::Specs>(e.params, "in_specs", "shard_map");
    HostArray scratch;
    for (size_t i = 0; i < e.inputs.size(); ++i)
      if (!blocks_fit(e.inputs[i], in_specs[i])) whole_value(e.inputs[i], scratch);
  }

  // Whether top-level operand a is already split as `spec` wants.
  bool blocks_fit(const ir::Atom& a, const PartitionSpec& spec) const {
    return !a.is_literal() && split[a.var] && split[a.var]->spec() == spec;
  }

  // Every device: run shard_map e's body on this device's blocks.
  void run_body(const ir::Eqn& e, Communicator& comm, int d) {
    const ir::Program& body = *ir::param<ir::ProgramRef>(e.params, "jaxpr", "shard_map");
    const auto& in_specs = ir::param<ir::Specs>(e.params, "in_specs", "shard_map");
    std::vector<HostArray> local = make_env(body);
    for (size_t i = 0; i < e.inputs.size(); ++i) {
      const ir::Atom& a = e.inputs[i];
      HostArray& h = local[body.invars[i]];
      h.words.resize(static_cast<size_t>(num_elements(h.aval.shape)));
      if (blocks_fit(a, in_specs[i])) {
        std::memcpy(h.words.data(), split[a.var]->block(d), h.words.size() * kElemBytes);
      } else {
        HostArray scratch;
        const HostArray& g = a.is_literal() ? scratch = literal_array(a) : env[a.var];
        read_block(*mesh, make_layout(*mesh, g.aval.shape, in_specs[i], "shard_map"), d, g.words.data(),
                   h.words.data());
      }
    }
    const ir::DeviceContext ctx{d, &comm};
    for (const ir::Eqn& eq : body.eqns) eval_eqn(eq, local, &ctx);
    for (size_t j = 0; j < body.outvars.size(); ++j) {
      ShardedArray& out = staged[j];
      bool first = true;  // the first device holding a shared block writes it
      for (int e2 = 0; e2 < d && first; ++e2) first = !out.shares_block(e2, d);
      if (!first) continue;
      const HostArray v = value_of(body.outvars[j], local);
      std::memcpy(out.block(d), v.words.data(), v.words.size() * kElemBytes);
    }
  }

  void device(Communicator& comm, int d) {
    const ir::Program& p = *program;
    for (const ir::Eqn& e : p.eqns) {
      if (e.prim != ir::Prim::kShardMap) {
        if (d != 0) continue;
        std::vector<HostArray> scratch(e.inputs.size());
        for (size_t i = 0; i < e.inputs.size(); ++i) whole_value(e.inputs[i], scratch[i]);
        eval_eqn(e, env, nullptr);
        for (ir::VarId v : e.outputs) whole[v] = true;
        continue;
      }
      if (d == 0) stage(e);
      comm.sync(d);
      run_body(e, comm, d);
      comm.sync(d);
      if (d == 0)
        for (size_t j = 0; j < e.outputs.size(); ++j) split[e.outputs[j]] = staged[j];
    }
    if (d != 0) return;
    for (const ir::Atom& a : p.outvars) {
      if (!a.is_literal() && split[a.var]) {
        outputs->push_back(*split[a.var]);
        continue;
      }
      HostArray scratch;
      const HostArray& g = whole_value(a, scratch);
      outputs->push_back(ShardedArray::put(mesh, g.aval.dtype, g.aval.shape, PartitionSpec{}, g.words.data()));
    }
  }
};

}  // namespace

ProgramJob prepare_program(Communicator& comm, std::shared_ptr<const ir::Program> program,
                           const std::vector<ShardedArray>& inputs) {
  const ir::Program& p = *program;
  if (inputs.size() != p.invars.size())
    fail(ErrorKind::kValue, "run: the program takes ", p.invars.size(), " inputs, got ", inputs.size());
  for (const ir::Eqn& e : p.eqns)
    if (e.prim == ir::Prim::kShardMap) {
      const auto& m = *ir::param<ir::MeshRef>(e.params, "mesh", "shard_map");
      if (m.shape() != comm.mesh().shape() || m.axis_names() != comm.mesh().axis_names())
        fail(ErrorKind::kSharding, "run: the program's shard_map uses ", m.str(), " but it runs on ", comm.mesh().str(),
             "; use one mesh for every shard_map of a program");
    }
  auto run = std::make_shared<Run>();
  run->program = std::move(program);
  run->mesh = comm.mesh_ptr();
  run->env = make_env(p);
  run->whole.assign(p.avals.size(), false);
  run->split.resize(p.avals.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ir::Aval& want = p.avals[p.invars[i]];
    if (inputs[i].dtype() != want.dtype || inputs[i].shape() != want.shape)
      fail(ErrorKind::kShape, "run: input ", i, " is ", dtype_name(inputs[i].dtype()), shape_str(inputs[i].shape()),
           " but the program expects ", want.str());
    if (!same_devices(inputs[i].mesh(), comm.mesh()))
      fail(ErrorKind::kSharding, "run: input ", i, " lives on ", inputs[i].mesh().str(), " but the program runs on ",
           comm.mesh().str());
    run->split[p.invars[i]] = inputs[i];
  }
  return ProgramJob{[run, &comm](int d) { run->device(comm, d); }, run->outputs};
}

std::vector<ShardedArray> run_program(DevicePool& pool, Communicator& comm, std::shared_ptr<const ir::Program> program,
                                      const std::vector<ShardedArray>& inputs) {
  ProgramJob job = prepare_program(comm, std::move(program), inputs);
  const JobResult r = pool.run(comm.mesh().size(), job.fn, &comm);
  if (!r.ok) throw Error(r.kind, r.message);
  return *job.outputs;
}

}  // namespace shardlab::exec
