// jit calls of a nested program: printed as JAX prints a nested jit, run
// inline with the program's values, differentiated through it (the JVP
// against finite differences, the transpose by the dot-product identity,
// reverse mode through the vjp pass), batched as its batched program.
#include <gtest/gtest.h>

#include "exec/lockstep_program.h"
#include "ir/tracing/autodiff.h"
#include "ir/tracing/ops.h"
#include "ir/forms/print.h"
#include "ir/primitives/control_flow.h"
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

// JAX 0.11's pp_toplevel_jaxpr: a program two equations use prints once,
// before the top level, as `let <its jit's name> = { ... } in`, and by name
// where used; variables are named in printing order across all of it; a
// nested program of more than 10 equations is printed apart even when used
// once, named "jaxpr" when its equation has no name (then jaxpr1, ...).
// A jit called twice on the same types traces the same program: both
// equations share it (JAX's trace cache), so it prints once; called on
// other types, or another function of the same name, it is a program of its own.
TEST(Jit, CalledTwiceOnTheSameTypesItsProgramIsShared) {
  Builder b;
  const Atom x = b.input(f32({3})), s = b.input(f32({}));
  const auto jit = [&](const Atom& a, double k) {
    FunctionTrace t(b, {a});
    return t.jit_call({mul(t.builder(), unary(t.builder(), Prim::kSin, t.inputs()[0]), f32_scalar(k))}, "g")[0];
  };
  const Atom first = jit(x, 2), second = jit(add(b, x, f32_scalar(1)), 2), scalar = jit(s, 2), other = jit(x, 3);
  const Program p = b.build({first, second, scalar, other});
  const auto body = [&](size_t i) { return param<ProgramRef>(p.eqns[i].params, "jaxpr", "jit").get(); };
  ASSERT_EQ(p.eqns.size(), 5u);  // jit, add, jit, jit, jit
  EXPECT_EQ(body(0), body(2));
  EXPECT_NE(body(0), body(3));  // f32[] operands
  EXPECT_NE(body(0), body(4));  // times 3
  const std::string text = to_text(p);
  EXPECT_EQ(text.rfind("let g = { lambda ; a:f32[3]. let\n    b:f32[3] = sin a\n    c:f32[3] = mul b 2.0:f32[]\n  in (c,) } in\n", 0), 0u) << text;
  EXPECT_NE(text.find("    f:f32[3] = jit[name=g jaxpr=g] d\n    g:f32[3] = add d 1.0:f32[]\n    h:f32[3] = jit[name=g jaxpr=g] g\n"), std::string::npos) << text;
}

TEST(Jit, AProgramUsedTwiceOrLongPrintsOnceBeforeTheTopLevel) {
  Builder body;
  const Atom v = body.input(f32({}));
  const auto twice = std::make_shared<const Program>(body.build({mul(body, v, f32_scalar(2.0))}));
  Builder b;
  const Atom x = b.input(f32({}));
  const auto call = [&](const Atom& a) { return b.emit1(Prim::kJit, {{"name", std::string("<lambda>")}, {"jaxpr", twice}}, {a}); };
  const Atom first = call(x), second = call(x);
  EXPECT_EQ(to_text(b.build({add(b, first, second)})),
            "let lambda = { lambda ; a:f32[]. let b:f32[] = mul a 2.0:f32[] in (b,) } in\n"
            "{ lambda ; c:f32[]. let\n"
            "    d:f32[] = jit[name=<lambda> jaxpr=lambda] c\n"
            "    e:f32[] = jit[name=<lambda> jaxpr=lambda] c\n"
            "    f:f32[] = add d e\n"
            "  in (f,) }");
  // Two long programs of an unnamed equation: a while's cond (JAX binds it first) is jaxpr, its body jaxpr1.
  const auto long_program = [](int n) {
    Builder lb;
    Atom a = lb.input(f32({}));
    for (int i = 0; i < n; ++i) a = add(lb, a, f32_scalar(1.0));
    return std::make_shared<const Program>(lb.build({a}));
  };
  Builder cb;
  const Atom c = cb.input(f32({}));
  Atom k = c;
  for (int i = 0; i < 10; ++i) k = add(cb, k, f32_scalar(1.0));
  const auto cond = std::make_shared<const Program>(cb.build({compare(cb, Prim::kLt, k, f32_scalar(100.0))}));
  Builder wb;
  const Atom y = wb.input(f32({}));
  const Atom out = wb.emit(Prim::kWhile, while_params(cond, 0, long_program(11), 0), {y})[0];
  const std::string text = to_text(wb.build({out}));
  EXPECT_EQ(text.substr(0, text.find(" = { lambda")), "let jaxpr");
  EXPECT_NE(text.find("in\nlet jaxpr1 = { lambda"), std::string::npos) << text;
  // Its parameters on one line would pass 80 columns: one per line, as JAX breaks them.
  EXPECT_NE(text.find("= while[\n      body_jaxpr=jaxpr1\n      body_nconsts=0\n      cond_jaxpr=jaxpr\n"), std::string::npos) << text;
  // A short program used once stays where it is used (Jit.PrintedAsJaxPrintsANestedJitAndRunInline).
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
