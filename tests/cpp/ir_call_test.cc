// jit calls of a nested program: printed as JAX prints a nested jit, run
// inline with the program's values, differentiated through it (the JVP
// against finite differences, the transpose by the dot-product identity,
// reverse mode through the vjp pass), batched as its batched program.
#include <gtest/gtest.h>

#include "exec/lockstep_program.h"
#include "ir/tracing/ops.h"
#include "ir/forms/print.h"
#include "ir/transforms/vjp.h"
#include "ir_checks.h"
#include "test_util.h"

namespace shardlab::ir {
namespace {

using exec::as_floats;
using exec::host_f32;

// jit[name=affine](x, w): x * w + 1.
Atom affine_call(Builder& b, const Atom& x, const Atom& w) {
  Builder body;
  const Atom bx = body.input(x.aval), bw = body.input(w.aval);
  const auto prog = std::make_shared<const Program>(body.build({add(body, mul(body, bx, bw), f32_scalar(1.0))}));
  return b.emit1(Prim::kJit, {{"name", std::string("affine")}, {"jaxpr", prog}}, {x, w});
}

TEST(Jit, PrintedAsJaxPrintsANestedJitAndRunInline) {
  Builder b;
  const Atom x = b.input(f32({3})), w = b.input(f32({3}));
  const Program p = b.build({mul(b, affine_call(b, x, w), f32_scalar(2.0))});
  EXPECT_EQ(to_text(p),
            "{ lambda ; a:f32[3] b:f32[3]. let\n"
            "    c:f32[3] = jit[\n"
            "      name=affine\n"
            "      jaxpr={ lambda ; d:f32[3] e:f32[3]. let\n"
            "          f:f32[3] = mul d e\n"
            "          g:f32[3] = add f 1.0:f32[]\n"
            "        in (g,) }\n"
            "    ] a b\n"
            "    h:f32[3] = mul c 2.0:f32[]\n"
            "  in (h,) }");
  const auto out = as_floats(exec::interpret(p, {host_f32({3}, {1, 2, 3}), host_f32({3}, {4, 5, 6})})[0]);
  EXPECT_EQ(out, (std::vector<float>{10, 22, 38}));
}

TEST(Jit, JvpTransposeAndReverseModeThroughTheProgram) {
  check_jvp([](Builder& b, auto in) { return affine_call(b, in[0], in[1]); }, {f32({4}), f32({4})});
  // linear in x for fixed w: x * w + 1 is affine, the check takes its linear part
  check_transpose([](Builder& b, auto in) { return affine_call(b, in[0], in[1]); }, {f32({4}), f32({4})}, 0);
  Builder b;
  const Atom x = b.input(f32({2})), w = b.input(f32({2}));
  const Program g = vjp(b.build({affine_call(b, x, w)}));
  const auto outs = exec::interpret(g, {host_f32({2}, {1, 2}), host_f32({2}, {3, 4}), host_f32({2}, {1, 10})});
  EXPECT_EQ(as_floats(outs[1]), (std::vector<float>{3, 40}));  // d/dx = w * ct
  EXPECT_EQ(as_floats(outs[2]), (std::vector<float>{1, 20}));  // d/dw = x * ct
}

}  // namespace
}  // namespace shardlab::ir
