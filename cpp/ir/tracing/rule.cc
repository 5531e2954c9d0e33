#include "ir/tracing/rule.h"

#include "runtime/errors.h"

namespace shardlab::ir {

RuleRef rule_named(const std::string& name) {
  return std::make_shared<const Rule>(Rule{name, [name](Builder&, const std::vector<Atom>&) -> std::vector<Atom> {
    fail(ErrorKind::kValue, "the custom rule ", name,
         " belongs to a program read from its JSON form, which keeps only its name: the program runs, "
         "but derivatives that need the rule must be taken where it was traced");
  }});
}

}  // namespace shardlab::ir
