#include "ir/tracing/control_flow.h"

#include <string>

#include "ir/tracing/parallel_ops.h"
#include "ir/primitives/control_flow.h"
#include "runtime/errors.h"

namespace shardlab::ir {

namespace {

std::vector<std::string> minus(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::string> out;
  for (const std::string& x : a)
    if (std::find(b.begin(), b.end(), x) == b.end()) out.push_back(x);
  return out;
}

}  // namespace

CondTrace::CondTrace(Builder& outer, std::vector<Atom> operands) : outer_(outer), operands_(std::move(operands)) {
  for (Atom& a : operands_) a = outer_.local(a);
}

Builder& CondTrace::begin_branch() {
  current_ = std::make_unique<Builder>(outer_.scope(), &outer_);
  inputs_.clear();
  for (const Atom& a : operands_) inputs_.push_back(current_->input(a.aval));
  return *current_;
}

void CondTrace::end_branch(std::vector<Atom> outs) {
  if (!current_) fail(ErrorKind::kValue, "cond: end_branch without begin_branch");
  for (Atom& o : outs) o = current_->local(o);
  if (!branches_.empty() && outs.size() != branches_[0].program.outvars.size())
    fail(ErrorKind::kValue, "branches of cond must return the same number of outputs, got ",
         branches_[0].program.outvars.size(), " and ", outs.size());
  branches_.push_back(Branch{current_->build(outs), current_->captured()});
  current_.reset();
}

std::vector<Atom> CondTrace::finish(const Atom& index) {
  if (branches_.empty()) fail(ErrorKind::kValue, "cond: no branches");
  const Atom idx = outer_.local(index);
  // Every branch takes every branch's closed-over values (deduplicated), then the operands.
  std::vector<Atom> consts;
  for (const Branch& br : branches_)
    for (const Atom& c : br.captured) {
      bool seen = false;
      for (const Atom& k : consts) seen = seen || (k.var == c.var && k.trace == c.trace);
      if (!seen) consts.push_back(c);
    }
  const std::vector<Atom>& first = branches_[0].program.outvars;
  std::vector<std::vector<std::string>> vma(first.size());
  for (const Branch& br : branches_) {
    bool same = br.program.outvars.size() == first.size();
    for (size_t j = 0; same && j < first.size(); ++j) same = same_type(br.program.outvars[j].aval, first[j].aval);
    if (!same)
      fail(ErrorKind::kShape, "branches of cond must have identical output types, got ", types_str(first), " and ",
           types_str(br.program.outvars));
    for (size_t j = 0; j < first.size(); ++j) vma[j] = vma_union(vma[j], br.program.outvars[j].aval.vma);
  }
  Programs programs;
  for (const Branch& br : branches_) {
    Builder b(outer_.scope(), nullptr);
    std::vector<Atom> all;
    for (const Atom& c : consts) all.push_back(b.input(c.aval));
    std::vector<Atom> args;
    for (const Atom& c : br.captured)
      for (size_t k = 0; k < consts.size(); ++k)
        if (consts[k].var == c.var && consts[k].trace == c.trace) args.push_back(all[k]);
    for (const Atom& a : operands_) args.push_back(b.input(a.aval));
    std::vector<Atom> outs = b.call(br.program, args);
    // Outputs vary along what any branch's do. Not along the index's axes:
    // JAX 0.11 types a cond's outputs by its branches' only (test_cond_rep_rule).
    for (size_t j = 0; j < outs.size(); ++j) {
      const std::vector<std::string> missing = minus(vma[j], outs[j].aval.vma);
      if (!missing.empty()) outs[j] = pvary(b, outs[j], missing);
    }
    programs.push_back(std::make_shared<const Program>(b.build(outs)));
  }
  std::vector<Atom> operands{idx};
  operands.insert(operands.end(), consts.begin(), consts.end());
  operands.insert(operands.end(), operands_.begin(), operands_.end());
  return outer_.emit(Prim::kCond, {{"branches", programs}}, operands);
}

ScanTrace::ScanTrace(Builder& outer, std::vector<Atom> init, std::vector<Atom> xs, std::optional<int64_t> length,
                     bool reverse)
    : outer_(outer), init_(std::move(init)), xs_(std::move(xs)), reverse_(reverse), inner_(outer.scope(), &outer) {
  std::string sizes;
  std::optional<int64_t> leading;
  for (Atom& x : xs_) {
    x = outer_.local(x);
    if (x.aval.shape.empty())
      fail(ErrorKind::kValue, "scan got value with no leading axis to scan over: ", x.aval.str());
    sizes += (sizes.empty() ? "" : ", ") + std::to_string(x.aval.shape[0]);
    if (leading && *leading != x.aval.shape[0])
      fail(ErrorKind::kValue, "scan got values with different leading axis sizes: ", sizes, ".");
    leading = x.aval.shape[0];
  }
  if (length && leading && *length != *leading)
    fail(ErrorKind::kValue, "scan got `length` argument of ", *length, " which disagrees with leading axis sizes [",
         sizes, "].");
  if (!length && !leading) fail(ErrorKind::kValue, "scan got no values to scan over and `length` not provided.");
  length_ = length ? *length : *leading;
  if (length_ < 0) fail(ErrorKind::kValue, "scan: length must be at least 0, got ", length_);
  for (Atom& c : init_) {
    c = outer_.local(c);
    inputs_.push_back(inner_.input(c.aval));
  }
  for (const Atom& x : xs_) inputs_.push_back(inner_.input(Aval{x.aval.dtype, Shape(x.aval.shape.begin() + 1, x.aval.shape.end()), x.aval.vma, x.aval.weak}));
}

std::vector<Atom> ScanTrace::finish(std::vector<Atom> outs) {
  if (outs.size() < init_.size())
    fail(ErrorKind::kValue, "scan: the body must return (carry, y) with a carry of ", init_.size(),
         " arrays, got ", outs.size(), " arrays in all");
  for (Atom& o : outs) o = inner_.local(o);
  for (size_t i = 0; i < init_.size(); ++i)
    if (!same_type(outs[i].aval, init_[i].aval))
      fail(ErrorKind::kShape, "scan body function carry input and carry output must have equal types, but carry ", i,
           " is ", init_[i].aval.str(), " as input and ", outs[i].aval.str(), " as output");
  const std::vector<Atom>& consts = inner_.captured();
  auto body = std::make_shared<const Program>(inner_.build(outs));
  std::vector<Atom> operands = consts;
  operands.insert(operands.end(), init_.begin(), init_.end());
  operands.insert(operands.end(), xs_.begin(), xs_.end());
  return outer_.emit(Prim::kScan,
                     scan_params(body, length_, static_cast<int64_t>(init_.size()), static_cast<int64_t>(consts.size()), reverse_),
                     operands);
}

WhileTrace::WhileTrace(Builder& outer, std::vector<Atom> init) : outer_(outer), init_(std::move(init)) {
  for (Atom& a : init_) a = outer_.local(a);
}

Builder& WhileTrace::begin() {
  current_ = std::make_unique<Builder>(outer_.scope(), &outer_);
  inputs_.clear();
  for (const Atom& a : init_) inputs_.push_back(current_->input(a.aval));
  return *current_;
}

Builder& WhileTrace::begin_cond() { return begin(); }

void WhileTrace::end_cond(const Atom& pred) {
  if (!current_ || cond_) fail(ErrorKind::kValue, "while_loop: end_cond without begin_cond");
  const Atom p = current_->local(pred);
  if (p.aval.dtype != DType::kBool || !p.aval.shape.empty())
    fail(ErrorKind::kShape, "cond_fun must return a boolean scalar, but got output type(s) [", p.aval.str(), "].");
  cond_consts_ = current_->captured();
  cond_ = std::make_shared<const Program>(current_->build({p}));
  current_.reset();
}

Builder& WhileTrace::begin_body() {
  if (!cond_) fail(ErrorKind::kValue, "while_loop: the cond is traced before the body");
  return begin();
}

std::vector<Atom> WhileTrace::finish(std::vector<Atom> outs) {
  if (!cond_ || !current_) fail(ErrorKind::kValue, "while_loop: finish before the cond and the body are traced");
  if (outs.size() != init_.size())
    fail(ErrorKind::kValue, "while_loop: body_fun returns ", outs.size(), " arrays for a carry of ", init_.size());
  for (Atom& o : outs) o = current_->local(o);
  for (size_t i = 0; i < init_.size(); ++i)
    if (!same_type(outs[i].aval, init_[i].aval))
      fail(ErrorKind::kShape, "while_loop body function carry input and carry output must have equal types, but "
           "carry ", i, " is ", init_[i].aval.str(), " as input and ", outs[i].aval.str(), " as output");
  const std::vector<Atom> body_consts = current_->captured();
  auto body = std::make_shared<const Program>(current_->build(outs));
  current_.reset();
  std::vector<Atom> operands = cond_consts_;
  operands.insert(operands.end(), body_consts.begin(), body_consts.end());
  operands.insert(operands.end(), init_.begin(), init_.end());
  return outer_.emit(Prim::kWhile,
                     while_params(cond_, static_cast<int64_t>(cond_consts_.size()), body,
                                  static_cast<int64_t>(body_consts.size())),
                     operands);
}

}  // namespace shardlab::ir
