// Tracing jax.lax.cond / switch, jax.lax.scan and jax.lax.while_loop in the
// middle of a trace: each branch (loop body, loop predicate) is traced in a
// builder nested in the enclosing
// one, with its scope; values it closes over become leading operands of the
// equation (consts), as JAX closes the jaxprs of its control flow.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "ir/tracing/builder.h"

namespace shardlab::ir {

/// A lax.cond / lax.switch being traced: branch after branch on the operands' types, then finish().
class CondTrace {
 public:
  /// Starts tracing the branches of a cond on `operands` (values of `outer`).
  CondTrace(Builder& outer, std::vector<Atom> operands);
  /// Starts the next branch: its builder, whose inputs() are the operands' stand-ins.
  Builder& begin_branch();
  /// The current branch's inputs.
  const std::vector<Atom>& inputs() const { return inputs_; }
  /// Ends the current branch with outputs `outs` (values of its builder).
  void end_branch(std::vector<Atom> outs);
  /// Emits the cond at `index` (an int32 scalar of the outer trace, in
  /// range) over the branches; returns its outputs. JAX's errors for
  /// branches of different output types.
  std::vector<Atom> finish(const Atom& index);

 private:
  struct Branch {
    Program program;
    std::vector<Atom> captured;  // values of outer_ it closes over
  };
  Builder& outer_;
  std::vector<Atom> operands_;
  std::unique_ptr<Builder> current_;
  std::vector<Atom> inputs_;
  std::vector<Branch> branches_;
};

/// A lax.scan being traced: the body on (carry, one row of each xs), then finish().
class ScanTrace {
 public:
  /// Starts tracing jax.lax.scan(f, init, xs, length, reverse) on values of
  /// `outer`; the length is xs' leading axis (they must agree) or `length`.
  ScanTrace(Builder& outer, std::vector<Atom> init, std::vector<Atom> xs, std::optional<int64_t> length, bool reverse);
  /// The body's builder.
  Builder& builder() { return inner_; }
  /// The body's inputs: the carries, then one row of each xs.
  const std::vector<Atom>& inputs() const { return inputs_; }
  /// The number of steps.
  int64_t length() const { return length_; }
  /// Emits the scan whose body returns `outs` (the new carries, then one row
  /// of each ys); returns the final carries, then the ys.
  std::vector<Atom> finish(std::vector<Atom> outs);

 private:
  Builder& outer_;
  std::vector<Atom> init_, xs_;
  int64_t length_ = 0;
  bool reverse_;
  Builder inner_;
  std::vector<Atom> inputs_;
};

/// A lax.while_loop being traced: its cond, then its body, each on the carries' types, then finish().
class WhileTrace {
 public:
  /// Starts tracing jax.lax.while_loop(cond_fun, body_fun, init) on `init` (values of `outer`).
  WhileTrace(Builder& outer, std::vector<Atom> init);
  /// Starts the cond: its builder, whose inputs() are the carries' stand-ins.
  Builder& begin_cond();
  /// Ends the cond with its predicate, which must be a bool scalar (JAX's error otherwise).
  void end_cond(const Atom& pred);
  /// Starts the body: its builder, whose inputs() are the carries' stand-ins.
  Builder& begin_body();
  /// The current cond's or body's inputs.
  const std::vector<Atom>& inputs() const { return inputs_; }
  /// Emits the while whose body returns `outs` (the new carries, of the
  /// carries' types); returns the final carries.
  std::vector<Atom> finish(std::vector<Atom> outs);

 private:
  Builder& begin();
  Builder& outer_;
  std::vector<Atom> init_;
  std::unique_ptr<Builder> current_;
  std::vector<Atom> inputs_;
  std::shared_ptr<const Program> cond_;
  std::vector<Atom> cond_consts_;  // values of outer_ the cond closes over
};

}  // namespace shardlab::ir
