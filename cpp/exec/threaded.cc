#include "exec/threaded.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "exec/eval_eqn.h"
#include "exec/frame.h"
#include "exec/timed.h"
#include "ir/primitives/shard_map.h"
#include "runtime/debug_log.h"
#include "runtime/errors.h"
#include "runtime/timeline.h"

namespace shardlab::exec {

namespace {

// Arrays on any mesh over the same devices can feed the program: blocks laid
// out by another mesh's names are assembled whole, then split as needed.
// Every mesh is over devices 0..size-1 (a mesh takes the runtime's first
// prod(shape) devices, row-major), so meshes of one size hold the same ones.
bool same_devices(const Mesh& a, const Mesh& b) { return a.size() == b.size(); }

// The state of one run, shared by the device threads. Device 0 alone runs
// the top level; the communicator's sync orders its writes before the other
// devices read them. Every device wake-up costs tens of microseconds on an
// oversubscribed machine, so the devices meet only where data flows between
// them: before a body that reads a value produced during the run, and after a
// body whose blocks device 0 then reads from other devices. A replicated
// result of a body is one buffer that device 0 writes, so device 0 goes on
// with top-level equations on replicated values without waiting for anyone.
struct Run {
  // Where a device takes its block of a shard_map input from.
  enum class Source : uint8_t {
    kOwnBlock,        // the operand is already split as the in_spec wants
    kCutFromReplica,  // the operand is replicated: cut from this device's copy
    kCutFromWhole,    // device 0 assembles the operand (or it is a literal); cut from that
  };

  std::shared_ptr<Executable> exe;
  std::shared_ptr<const Mesh> mesh;
  std::vector<HostArray> env;                      // top-level values, whole (typed when first used)
  std::vector<bool> whole;                         // env[v] holds v's value
  std::vector<std::optional<ShardedArray>> split;  // top-level values as blocks
  std::vector<std::vector<ShardedArray>> staged;   // per shard_map eqn: its outputs, allocated up front
  std::vector<bool> sync_before, sync_after;       // per eqn: where the devices meet
  std::vector<bool> on_blocks;                     // per top-level eqn: device 0 runs it on replicated blocks
  std::vector<std::vector<Source>> in_sources;     // per shard_map eqn: where its inputs' blocks come from
  bool rerun_needs_sync = false;                   // whether a run may read what the previous one writes
  std::shared_ptr<std::vector<ShardedArray>> outputs = std::make_shared<std::vector<ShardedArray>>();

  // The whole value of top-level operand a, assembled from blocks if needed.
  const HostArray& whole_value(const ir::Atom& a, HostArray& scratch) {
    if (a.is_literal()) return scratch = literal_array(a);
    if (!whole[a.var]) {
      HostArray& h = env[a.var];
      h.aval = program().avals[a.var];
      h.words.resize(static_cast<size_t>(num_elements(h.aval.shape)));
      split[a.var]->get(h.words.data(), false);
      whole[a.var] = true;
    }
    return env[a.var];
  }

  const ir::Program& program() const { return exe->program(); }

  // The whole value of operand a that device 0 staged before the last sync
  // (or a literal): read-only, so every device may call it.
  const HostArray& whole_value_ready(const ir::Atom& a, HostArray& scratch) const {
    return a.is_literal() ? scratch = literal_array(a) : env[a.var];
  }

  // Device 0: assemble the inputs of shard_map eqn i that are cut from a whole value.
  void stage(size_t i) {
    const ir::Eqn& e = program().eqns[i];
    HostArray scratch;
    for (size_t k = 0; k < e.inputs.size(); ++k)
      if (in_sources[i][k] == Source::kCutFromWhole) whole_value(e.inputs[k], scratch);
  }

  // Plans the run (on the submitting thread): allocates the outputs of every
  // shard_map and of every top-level equation on replicated blocks, and
  // decides where the devices must meet.
  void plan() {
    const ir::Program& p = program();
    // For each value made during the run: the equation that makes it, and
    // whether devices other than 0 write some of its blocks (a body's output
    // split over some axis; a replicated one is a single buffer device 0 writes).
    std::vector<int> made_by(p.avals.size(), -1);
    std::vector<bool> written_by_many(p.avals.size(), false);
    int last_sync = -1;  // the devices met after eqn last_sync (or before eqn last_sync + 1)
    // Device 0 reads every block of v: the body that wrote them must be over on every device.
    auto device0_reads = [&](const ir::Atom& a) {
      if (a.is_literal() || made_by[a.var] <= last_sync || !written_by_many[a.var]) return;
      sync_after[made_by[a.var]] = true;
      last_sync = made_by[a.var];
    };
    // Allocates output v of eqn i, laid out by `spec`, as a top-level value
    // held as blocks, its replicas sharing buffers as `share_mask` says (the
    // frames write them accordingly: exec/executable.h's OutputPlan).
    auto allocate = [&](size_t i, ir::VarId v, const PartitionSpec& spec, uint32_t share_mask) {
      split[v] = staged[i].emplace_back(mesh, p.avals[v].dtype, p.avals[v].shape, spec, share_mask);
    };
    staged.resize(p.eqns.size());
    sync_before.assign(p.eqns.size(), false);
    sync_after.assign(p.eqns.size(), false);
    on_blocks.assign(p.eqns.size(), false);
    in_sources.resize(p.eqns.size());
    for (size_t i = 0; i < p.eqns.size(); ++i) {
      const ir::Eqn& e = p.eqns[i];
      for (ir::VarId v : e.outputs) made_by[v] = static_cast<int>(i);
      if (e.prim != ir::Prim::kShardMap) {
        on_blocks[i] = ir::primitive(e.prim).eval != nullptr &&
                       std::all_of(e.inputs.begin(), e.inputs.end(),
                                   [&](const ir::Atom& a) { return a.is_literal() || held_whole(a); });
        if (on_blocks[i]) {
          for (ir::VarId v : e.outputs) allocate(i, v, PartitionSpec{}, ShardedArray::kShareAll);
        } else {
          for (const ir::Atom& a : e.inputs) device0_reads(a);
        }
        continue;
      }
      const auto& in_specs = ir::param<ir::Specs>(e.params, "in_specs", "shard_map");
      for (size_t k = 0; k < e.inputs.size(); ++k) {
        const ir::Atom& a = e.inputs[k];
        const Source source = blocks_fit(a, in_specs[k]) ? Source::kOwnBlock
                              : held_whole(a)            ? Source::kCutFromReplica
                                                         : Source::kCutFromWhole;
        in_sources[i].push_back(source);
        if (source == Source::kCutFromWhole) device0_reads(a);  // device 0 stages it before the sync
        // Every device reads blocks another device may have written during the run.
        if (!a.is_literal() && (made_by[a.var] > last_sync || source == Source::kCutFromWhole)) {
          sync_before[i] = true;
          last_sync = static_cast<int>(i) - 1;
        }
      }
      const auto& out_specs = ir::param<ir::Specs>(e.params, "out_specs", "shard_map");
      staged[i].reserve(e.outputs.size());
      for (size_t j = 0; j < e.outputs.size(); ++j) {
        allocate(i, e.outputs[j], out_specs[j], exe->output_plans(i)[j].share_mask);
        written_by_many[e.outputs[j]] = !replicated(e.outputs[j]);
      }
    }
    // A program of shard_maps reading only the job's inputs may run again at
    // once (its collectives order the runs); otherwise the devices meet first.
    for (size_t i = 0; i < p.eqns.size(); ++i)
      rerun_needs_sync = rerun_needs_sync || p.eqns[i].prim != ir::Prim::kShardMap || sync_before[i] || sync_after[i];
  }

  // Whether every device holds top-level operand a whole (it is replicated):
  // each device then cuts its block from its own copy and nobody assembles it.
  bool held_whole(const ir::Atom& a) const { return !a.is_literal() && replicated(a.var); }

  // Whether top-level value v is held as blocks that are all of it.
  bool replicated(ir::VarId v) const {
    if (!split[v]) return false;
    for (const auto& axes : split[v]->spec().entries)
      if (!axes.empty()) return false;
    return true;
  }

  // Device 0: top-level eqn i on the replicated blocks of its operands (the
  // outputs were allocated by plan()); no value is assembled or put.
  void run_on_blocks(size_t i) {
    eval_in_place(
        program().eqns[i], [&](ir::VarId v) { return split[v]->block(0); },
        [&](ir::VarId v) {
          return ir::Tensor{program().avals[v], split[v]->block(0)};
        },
        nullptr);
  }

  // Whether top-level operand a is already split as `spec` wants.
  // (on a mesh of the same shape and names: the same spec on another mesh of
  // as many devices names other blocks).
  bool blocks_fit(const ir::Atom& a, const PartitionSpec& spec) const {
    if (a.is_literal() || !split[a.var]) return false;
    const Mesh& m = split[a.var]->mesh();
    return split[a.var]->spec().splits_like(spec) && m.shape() == mesh->shape() && m.axis_names() == mesh->axis_names();
  }

  // Every device: run shard_map eqn i's body on this device's blocks, in the
  // device's frame for it.
  void run_body(size_t i, Communicator& comm, int d) {
    std::vector<ShardedArray>& outs = staged[i];
    const ir::Eqn& e = program().eqns[i];
    const ir::Program& body = *ir::param<ir::ProgramRef>(e.params, "jaxpr", "shard_map");
    Frame& frame = exe->frame(i, d);
    for (size_t k = 0; k < e.inputs.size(); ++k) {
      const ir::Atom& a = e.inputs[k];
      if (in_sources[i][k] == Source::kOwnBlock) {
        frame.bind_input(k, split[a.var]->block(d));  // read in place
        continue;
      }
      uint32_t* dst = frame.input_storage(k);
      HostArray scratch;
      const void* whole = in_sources[i][k] == Source::kCutFromReplica ? split[a.var]->block(d)
                                                                       : whole_value_ready(a, scratch).words.data();
      read_block(*mesh, exe->in_layouts(i)[k], d, whole, dst);
      frame.bind_input(k, dst);
    }
    for (size_t j = 0; j < body.outvars.size(); ++j)
      if (frame.binds_output(j)) frame.bind_output(j, outs[j].block(d));
    frame.run(ir::DeviceContext{d, &comm});
    // Outputs the frame did not compute in place (a body input or a literal
    // returned as is, a value returned twice) are copied by their writers.
    for (size_t j = 0; j < body.outvars.size(); ++j)
      if (frame.writes(j) && !frame.binds_output(j))
        std::memcpy(outs[j].block(d), frame.output(j),
                    static_cast<size_t>(num_elements(body.outvars[j].aval.shape)) * kElemBytes);
  }

  void device(Communicator& comm, int d) {
    if (Timeline* t = Timeline::armed()) t->restart(d);
    run_once(comm, d);
    if (d != 0) return;
    outputs->clear();  // a job run again (the benchmarks) gives its last run's outputs
    for (const ir::Atom& a : program().outvars) {
      if (!a.is_literal() && split[a.var]) {
        outputs->push_back(*split[a.var]);
        continue;
      }
      HostArray scratch;
      const HostArray& g = whole_value(a, scratch);
      outputs->push_back(ShardedArray::put(mesh, g.aval.dtype, g.aval.shape, PartitionSpec{}, g.words.data()));
    }
  }

  // Every device: one run of the program.
  void run_once(Communicator& comm, int d) {
    const ir::Program& p = program();
    for (size_t i = 0; i < p.eqns.size(); ++i) {
      const ir::Eqn& e = p.eqns[i];
      const auto index = static_cast<int32_t>(i);
      DebugLog::instance().set_phase(d, index);
      if (d == 0) DebugLog::instance().set_phase(-1, index);  // device 0 runs the host's equations
      if (e.prim != ir::Prim::kShardMap) {
        if (d != 0) continue;
        timed(d, index, ir::primitive(e.prim), [&] {
          if (on_blocks[i]) {
            run_on_blocks(i);
            return;
          }
          std::vector<HostArray> scratch(e.inputs.size());
          for (size_t k = 0; k < e.inputs.size(); ++k) whole_value(e.inputs[k], scratch[k]);
          for (ir::VarId v : e.outputs) env[v].aval = p.avals[v];
          eval_eqn(e, env, nullptr);
          for (ir::VarId v : e.outputs) whole[v] = true;
        });
        continue;
      }
      if (sync_before[i]) {
        if (d == 0) stage(i);
        comm.sync(d);
      }
      timed(d, index, ir::primitive(e.prim), [&] { run_body(i, comm, d); });
      if (sync_after[i]) comm.sync(d);
    }
  }
};

}  // namespace

ProgramJob prepare_program(Communicator& comm, std::shared_ptr<Executable> exe, const std::vector<ShardedArray>& inputs) {
  const ir::Program& p = exe->program();
  if (inputs.size() != p.invars.size())
    fail(ErrorKind::kValue, "run: the program takes ", p.invars.size(), " inputs, got ", inputs.size());
  if (const ir::MeshRef m = ir::program_mesh(p, "run");
      m && (m->shape() != comm.mesh().shape() || m->axis_names() != comm.mesh().axis_names()))
    fail(ErrorKind::kSharding, "run: the program's shard_maps use ", m->str(), " but it runs on ", comm.mesh().str(),
         "; run it on its shard_maps' mesh");
  auto run = std::make_shared<Run>();
  run->exe = std::move(exe);
  run->mesh = comm.mesh_ptr();
  run->env.resize(p.avals.size());
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
  run->plan();
  return ProgramJob{[run, &comm](int d) { run->device(comm, d); }, run->outputs, run->rerun_needs_sync};
}

std::vector<ShardedArray> run_program(DevicePool& pool, Communicator& comm, std::shared_ptr<Executable> exe,
                                      const std::vector<ShardedArray>& inputs) {
  ProgramJob job = prepare_program(comm, std::move(exe), inputs);
  const JobResult r = pool.run(comm.mesh().size(), job.fn, &comm);
  if (!r.ok) throw Error(r.kind, r.message);
  return *job.outputs;
}

}  // namespace shardlab::exec
