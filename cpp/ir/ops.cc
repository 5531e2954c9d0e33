#include "ir/ops.h"

namespace shardlab::ir {

Atom add(Builder& b, const Atom& x, const Atom& y) { return b.emit1(Prim::kAdd, {}, {x, y}); }
Atom sub(Builder& b, const Atom& x, const Atom& y) { return b.emit1(Prim::kSub, {}, {x, y}); }
Atom mul(Builder& b, const Atom& x, const Atom& y) { return b.emit1(Prim::kMul, {}, {x, y}); }
Atom neg(Builder& b, const Atom& x) { return b.emit1(Prim::kNeg, {}, {x}); }

}  // namespace shardlab::ir
