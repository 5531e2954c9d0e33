// A function a transformation traces when it needs it: custom_jvp's jvp
// rule and custom_vjp's fwd and bwd are the user's functions, traced only
// when a derivative is taken (tracing them when the function is called would
// recurse, since a jvp rule usually calls the function itself), and then
// into whatever builder the transformation is emitting into.
#pragma once

#include <string>

#include "ir/tracing/builder.h"

namespace shardlab::ir {

/// A named function of traced values (a Rule param, RuleRef in params.h).
struct Rule {
  std::string name;  ///< how the program prints it (the user function's name)
  TracedFn fn;       ///< emits the function on its arguments into the builder given
};

/// A rule only known by name (a program read from its JSON form: it can run,
/// but a derivative that needs the rule fails with a message naming it).
RuleRef rule_named(const std::string& name);

}  // namespace shardlab::ir
