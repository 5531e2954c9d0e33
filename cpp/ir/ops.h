// Emitting primitives by name from C++: what JVP and transpose rules (and the
// C++ tests) write programs with.
#pragma once

#include "ir/builder.h"

namespace shardlab::ir {

/// x + y (equal shapes and dtypes).
Atom add(Builder& b, const Atom& x, const Atom& y);
/// x - y.
Atom sub(Builder& b, const Atom& x, const Atom& y);
/// x * y.
Atom mul(Builder& b, const Atom& x, const Atom& y);
/// -x.
Atom neg(Builder& b, const Atom& x);

}  // namespace shardlab::ir
