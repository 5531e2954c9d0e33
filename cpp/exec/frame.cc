#include "exec/frame.h"

#include <cstring>

#include "exec/eval_eqn.h"
#include "runtime/errors.h"
#include "runtime/platform.h"
#include "runtime/shape.h"
#include "runtime/sizes.h"

namespace shardlab::exec {

namespace {

// Which equations of `body` a device runs: backwards from the outputs it
// writes, every equation making a value they need, and every equation not
// evaluated locally (a collective: its peers wait for this device there).
std::vector<bool> needed_equations(const ir::Program& body, const std::vector<bool>& writes) {
  std::vector<bool> needed_var(body.avals.size(), false);
  for (size_t j = 0; j < body.outvars.size(); ++j)
    if (writes[j] && !body.outvars[j].is_literal()) needed_var[static_cast<size_t>(body.outvars[j].var)] = true;
  std::vector<bool> run(body.eqns.size(), false);
  for (size_t i = body.eqns.size(); i-- > 0;) {
    const ir::Eqn& e = body.eqns[i];
    run[i] = ir::primitive(e.prim).eval == nullptr;
    for (ir::VarId v : e.outputs) run[i] = run[i] || needed_var[static_cast<size_t>(v)];
    if (!run[i]) continue;
    for (const ir::Atom& a : e.inputs)
      if (!a.is_literal()) needed_var[static_cast<size_t>(a.var)] = true;
  }
  return run;
}

}  // namespace

Frame::Frame(const ir::Program& body, std::vector<bool> writes)
    : writes_(std::move(writes)), var_offset_(body.avals.size()) {
  // Each value fits in the device memory, but all of them together may not,
  // nor their count of words in a 32-bit size_t: sum in 64 bits and check
  // (the literals' words after them are a few more, far from overflowing).
  uint64_t total = 0;
  for (const ir::Aval& aval : body.avals) total += static_cast<uint64_t>(num_elements(aval.shape));
  const uint64_t limit = platform::device_memory_bytes();
  if (total > limit / kElemBytes)
    fail(ErrorKind::kResource, "shard_map: the body's values need ", bytes_str(total * kElemBytes),
         " on each device, more than the ", bytes_str(limit), " of device memory");
  size_t words = 0;
  for (size_t v = 0; v < body.avals.size(); ++v) {
    var_offset_[v] = words;
    words += static_cast<size_t>(num_elements(body.avals[v].shape));
  }
  const std::vector<bool> run = needed_equations(body, writes_);
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
  arena_.assign(words, 0);
  for (const auto& [offset, bits] : literals_) arena_[offset] = bits;

  tensors_.reserve(tensors);
  for (size_t i = 0; i < body.eqns.size(); ++i) {
    if (!run[i]) continue;
    const ir::Eqn& e = body.eqns[i];
    Step& step = steps_.emplace_back(Step{&e, {}, {}, {}});
    for (size_t k = 0; k < e.inputs.size(); ++k)
      step.in.push_back(&tensors_.emplace_back(ir::Tensor{e.inputs[k].aval, arena_.data() + input_offsets[i][k]}));
    for (ir::VarId v : e.outputs) {
      const ir::Aval& aval = body.avals[static_cast<size_t>(v)];
      step.out.push_back(&tensors_.emplace_back(ir::Tensor{aval, var(v)}));
      step.out_bytes.push_back(static_cast<size_t>(num_elements(aval.shape)) * kElemBytes);
    }
  }
}

void Frame::run(const ir::DeviceContext& ctx) {
  for (const Step& step : steps_) {
    // Rules may accumulate into their outputs, as into fresh zeroed storage.
    for (size_t j = 0; j < step.out.size(); ++j) std::memset(step.out[j]->data, 0, step.out_bytes[j]);
    eval_tensors(*step.eqn, step.in, step.out, &ctx);
  }
}

}  // namespace shardlab::exec
