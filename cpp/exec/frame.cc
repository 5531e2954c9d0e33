#include "exec/frame.h"

#include <cstdint>
#include <cstring>

#include "exec/eval_eqn.h"
#include "exec/timed.h"
#include "runtime/errors.h"
#include "platform/platform.h"
#include "runtime/shape.h"
#include "runtime/sizes.h"

namespace shardlab::exec {

namespace {

// Which equations of `body` a device runs: backwards from the outputs it
// writes, every equation making a value they need, and every equation that
// may meet the other devices (a collective, or a loop or branch the executor
// runs, which may hold one: its peers wait for this device there), and every
// effect (debug_callback: each device's values go to the host). pvary and
// axis_index run on a device but meet no other.
std::vector<bool> needed_equations(const ir::Program& body, const std::vector<bool>& writes) {
  std::vector<bool> needed_var(body.avals.size(), false);
  for (size_t j = 0; j < body.outvars.size(); ++j)
    if (writes[j] && !body.outvars[j].is_literal()) needed_var[static_cast<size_t>(body.outvars[j].var)] = true;
  std::vector<bool> run(body.eqns.size(), false);
  for (size_t i = body.eqns.size(); i-- > 0;) {
    const ir::Eqn& e = body.eqns[i];
    const ir::PrimitiveDef& def = ir::primitive(e.prim);
    run[i] = def.collective || def.effect || (def.eval == nullptr && def.eval_on_device == nullptr);
    for (ir::VarId v : e.outputs) run[i] = run[i] || needed_var[static_cast<size_t>(v)];
    if (!run[i]) continue;
    for (const ir::Atom& a : e.inputs)
      if (!a.is_literal()) needed_var[static_cast<size_t>(a.var)] = true;
  }
  return run;
}

}  // namespace

Frame::Frame(const ir::Program& body, std::vector<bool> writes)
    : body_(body),
      writes_(std::move(writes)),
      var_offset_(body.avals.size(), SIZE_MAX),
      in_users_(body.invars.size()),
      out_users_(body.outvars.size()),
      input_storage_(body.invars.size()) {
  // Each value fits in the device memory, but all of them together may not,
  // nor their count of words in a 32-bit size_t: sum in 64 bits and check
  // (the literals' words after them are a few more, far from overflowing).
  uint64_t total = 0;
  for (const ir::Aval& aval : body.avals) total += static_cast<uint64_t>(num_elements(aval.shape));
  const uint64_t limit = platform::device_memory_bytes();
  if (total > limit / kElemBytes)
    fail(ErrorKind::kResource, "shard_map: the body's values need ", bytes_str(total * kElemBytes),
         " on each device, more than the ", bytes_str(limit), " of device memory");
  const std::vector<bool> run = needed_equations(body, writes_);
  // Where each variable lives: an input's block, an output's block (an
  // output this device writes, made by an equation, listed once), or the arena.
  std::vector<Users*> outside(body.avals.size(), nullptr);
  for (size_t k = 0; k < body.invars.size(); ++k) outside[static_cast<size_t>(body.invars[k])] = &in_users_[k];
  for (size_t j = 0; j < body.outvars.size(); ++j) {
    const ir::Atom& a = body.outvars[j];
    if (writes_[j] && !a.is_literal() && !outside[static_cast<size_t>(a.var)]) {
      out_users_[j].bound = true;
      outside[static_cast<size_t>(a.var)] = &out_users_[j];
    }
  }
  // Every array starts on a 64-byte line (kAlignWords), the scalars packed:
  // a kernel's vector loads (Eigen's natively) then take the same path on
  // every device, in every executor and whatever the values before it, so
  // results stay bitwise the same when a program gains an equation.
  size_t words = 0;
  for (size_t v = 0; v < body.avals.size(); ++v) {
    if (outside[v]) continue;
    const auto n = static_cast<size_t>(num_elements(body.avals[v].shape));
    if (n > 1) words = (words + kAlignWords - 1) / kAlignWords * kAlignWords;
    var_offset_[v] = words;
    words += n;
  }
  // Literals go after the variables, one word each.
  auto literal_at = [&](const ir::Atom& a) {
    literals_.emplace_back(words, literal_array(a).words[0]);
    return words++;
  };
  for (const ir::Atom& a : body.outvars)
    output_offset_.push_back(a.is_literal() ? literal_at(a) : var_offset_[static_cast<size_t>(a.var)]);
  std::vector<std::vector<size_t>> input_offsets(body.eqns.size());
  size_t tensors = 0;
  for (size_t i = 0; i < body.eqns.size(); ++i) {
    if (!run[i]) continue;
    const ir::Eqn& e = body.eqns[i];
    tensors += e.inputs.size() + e.outputs.size();
    for (const ir::Atom& a : e.inputs)
      input_offsets[i].push_back(a.is_literal() ? literal_at(a) : var_offset_[static_cast<size_t>(a.var)]);
  }
  arena_.assign(words + kAlignWords, 0);
  const auto misaligned = reinterpret_cast<uintptr_t>(arena_.data()) % (kAlignWords * kElemBytes);
  base_ = misaligned ? (kAlignWords * kElemBytes - misaligned) / kElemBytes : 0;
  for (const auto& [offset, bits] : literals_) arena_[base_ + offset] = bits;

  // A tensor of variable v (-1: a literal): in the arena, or repointed each run.
  auto tensor = [&](const ir::Aval& aval, size_t offset, ir::VarId v) {
    Users* u = v >= 0 ? outside[static_cast<size_t>(v)] : nullptr;
    ir::Tensor* t = &tensors_.emplace_back(ir::Tensor{aval, u ? nullptr : arena_.data() + base_ + offset});
    if (u) u->tensors.push_back(t);
    return t;
  };
  tensors_.reserve(tensors);
  for (size_t i = 0; i < body.eqns.size(); ++i) {
    if (!run[i]) continue;
    const ir::Eqn& e = body.eqns[i];
    Step& step = steps_.emplace_back(Step{&e, {}, {}, {}, ir::primitive(e.prim).eval != nullptr, static_cast<int32_t>(i)});
    for (size_t k = 0; k < e.inputs.size(); ++k)
      step.in.push_back(tensor(e.inputs[k].aval, input_offsets[i][k], e.inputs[k].is_literal() ? -1 : e.inputs[k].var));
    for (ir::VarId v : e.outputs) {
      const ir::Aval& aval = body.avals[static_cast<size_t>(v)];
      step.out.push_back(tensor(aval, var_offset_[static_cast<size_t>(v)], v));
      step.out_bytes.push_back(static_cast<size_t>(num_elements(aval.shape)) * kElemBytes);
    }
  }
}

void Frame::point(Users& u, const void* data) {
  u.data = data;
  for (ir::Tensor* t : u.tensors) t->data = const_cast<void*>(data);  // inputs are only read
}

void Frame::bind_input(size_t k, const void* block) { point(in_users_[k], block); }

uint32_t* Frame::input_storage(size_t k) {
  std::vector<uint32_t>& s = input_storage_[k];
  if (s.empty()) s.resize(static_cast<size_t>(num_elements(body_.avals[static_cast<size_t>(body_.invars[k])].shape)));
  return s.data();
}

void Frame::bind_output(size_t j, void* block) { point(out_users_[j], block); }

const uint32_t* Frame::output(size_t j) const {
  if (out_users_[j].bound) return static_cast<const uint32_t*>(out_users_[j].data);
  const ir::Atom& a = body_.outvars[j];
  if (!a.is_literal())
    for (size_t k = 0; k < body_.invars.size(); ++k)
      if (body_.invars[k] == a.var) return static_cast<const uint32_t*>(in_users_[k].data);
  return arena_.data() + base_ + output_offset_[j];
}

void Frame::run(const ir::DeviceContext& ctx) {
  for (const Step& step : steps_) {
    if (step.clear)
      for (size_t j = 0; j < step.out.size(); ++j) std::memset(step.out[j]->data, 0, step.out_bytes[j]);
    timed(ctx.device, step.index, ir::primitive(step.eqn->prim), [&] { eval_tensors(*step.eqn, step.in, step.out, &ctx); });
  }
}

}  // namespace shardlab::exec
