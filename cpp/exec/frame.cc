#include "exec/frame.h"

#include <cstring>

#include "exec/eval_eqn.h"
#include "runtime/shape.h"

namespace shardlab::exec {

Frame::Frame(const ir::Program& body) : body_(body), var_offset_(body.avals.size()) {
  size_t words = 0;
  for (size_t v = 0; v < body.avals.size(); ++v) {
    var_offset_[v] = words;
    words += static_cast<size_t>(num_elements(body.avals[v].shape));
  }
  // Literals go after the variables, one word each.
  size_t tensors = 0;
  for (const ir::Eqn& e : body.eqns) tensors += e.inputs.size() + e.outputs.size();
  auto literal_at = [&](const ir::Atom& a) {
    literals_.emplace_back(words, literal_array(a).words[0]);
    return words++;
  };
  for (const ir::Atom& a : body.outvars)
    output_offset_.push_back(a.is_literal() ? literal_at(a) : var_offset_[static_cast<size_t>(a.var)]);
  std::vector<std::vector<size_t>> input_offsets;
  for (const ir::Eqn& e : body.eqns) {
    auto& offs = input_offsets.emplace_back();
    for (const ir::Atom& a : e.inputs)
      offs.push_back(a.is_literal() ? literal_at(a) : var_offset_[static_cast<size_t>(a.var)]);
  }
  arena_.assign(words, 0);
  for (const auto& [offset, bits] : literals_) arena_[offset] = bits;

  tensors_.reserve(tensors);
  steps_.resize(body.eqns.size());
  for (size_t i = 0; i < body.eqns.size(); ++i) {
    const ir::Eqn& e = body.eqns[i];
    for (size_t k = 0; k < e.inputs.size(); ++k)
      steps_[i].in.push_back(&tensors_.emplace_back(ir::Tensor{e.inputs[k].aval, arena_.data() + input_offsets[i][k]}));
    for (ir::VarId v : e.outputs) {
      const ir::Aval& aval = body.avals[static_cast<size_t>(v)];
      steps_[i].out.push_back(&tensors_.emplace_back(ir::Tensor{aval, var(v)}));
      steps_[i].out_bytes.push_back(static_cast<size_t>(num_elements(aval.shape)) * kElemBytes);
    }
  }
}

void Frame::run(const ir::DeviceContext& ctx) {
  for (size_t i = 0; i < steps_.size(); ++i) {
    // Rules may accumulate into their outputs, as into fresh zeroed storage.
    for (size_t j = 0; j < steps_[i].out.size(); ++j) std::memset(steps_[i].out[j]->data, 0, steps_[i].out_bytes[j]);
    eval_tensors(body_.eqns[i], steps_[i].in, steps_[i].out, &ctx);
  }
}

}  // namespace shardlab::exec
