// Reading programs from their JSON form (ir/forms/json_read.h): every primitive's
// program reads back to the same program (the same JSON and text, the same
// results), and every malformed, hostile or oversized text gets a named
// error instead of a crash.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "exec/lockstep_program.h"
#include "ir/tracing/autodiff.h"
#include "ir/forms/json.h"
#include "ir/forms/json_read.h"
#include "ir/tracing/ops.h"
#include "ir/tracing/parallel_ops.h"
#include "lax_calls.h"
#include "ir/forms/print.h"
#include "ir/primitives/sharding_ops.h"
#include "ir_checks.h"
#include "runtime/errors.h"
#include "test_util.h"

namespace shardlab::ir {
namespace {

using Atoms = std::vector<Atom>;
using testing::error_message;

PartitionSpec P(std::vector<std::vector<std::string>> entries = {}) { return PartitionSpec{std::move(entries)}; }

// A program that holds every primitive at least once, with a shard_map whose
// body holds every collective and a gradient (so transposes appear too).
Program every_primitive() {
  const auto mesh = testing::make_mesh({2, 4}, {"data", "model"});
  Builder b;
  const Atom x = b.input(f32({8, 4})), w = b.input(f32({4, 4})), s = b.input(f32({}));
  Atom t = add(b, sub(b, mul(b, x, s), div(b, x, f32_scalar(2))), neg(b, x));
  t = pow(b, max(b, min(b, t, f32_scalar(3)), f32_scalar(-3)), f32_scalar(2));
  for (Prim p : {Prim::kExp, Prim::kLog, Prim::kTanh, Prim::kLogistic, Prim::kSqrt, Prim::kRsqrt, Prim::kSquare,
                 Prim::kAbs, Prim::kSign, Prim::kFloor, Prim::kCeil, Prim::kSin, Prim::kCos, Prim::kTan, Prim::kAsin,
                 Prim::kAcos, Prim::kAtan, Prim::kSinh, Prim::kCosh, Prim::kLog1p, Prim::kExpm1, Prim::kExp2})
    t = add(b, t, unary(b, p, unary(b, Prim::kAbs, x)));  // |x| <= 1: inside every domain
  t = add(b, b.emit1(Prim::kRem, {}, {t, f32_scalar(3)}), b.emit1(Prim::kRound, {{"rounding_method", int64_t{1}}}, {t}));
  t = add(b, t, b.emit1(Prim::kAtan2, {}, {t, x}));
  const Atom c = compare(b, Prim::kLt, t, x);
  for (Prim p : {Prim::kEq, Prim::kNe, Prim::kLe, Prim::kGt, Prim::kGe}) compare(b, p, t, x);
  t = select_n(b, b.emit1(Prim::kIsFinite, {}, {t}), {x, t});
  t = select_n(b, c, {t, x});
  const Atom i = iota(b, DType::kInt32, {8, 4}, 1);
  t = add(b, t, convert_element_type(b, i, DType::kFloat32));
  t = transpose(b, reshape(b, t, {4, 8}), {1, 0});
  t = squeeze(b, expand_dims(b, t, {0}), {0});
  t = concatenate(b, {slice(b, t, {0, 0}, {4, 4}, {1, 1}), slice(b, t, {4, 0}, {8, 4}, {1, 1})}, 0);
  t = pad(b, slice(b, t, {0, 0}, {8, 2}, {1, 1}), f32_scalar(0.5), {{0, 0, 0}, {1, 1, 0}});
  const Atom zero = Atom::constant(0, DType::kInt32), one = Atom::constant(1, DType::kInt32);
  t = dynamic_update_slice(b, t, dynamic_slice(b, t, {one, zero}, {2, 2}), {zero, one});
  {  // rows 0..2 gathered, then scattered back with each combiner; rev
    const Atom idx = reshape(b, iota(b, DType::kInt32, {3}, 0), {3, 1});
    const IntLists dims{{1}, {0}, {0}, {}, {}};
    const Atom rows = gather(b, t, idx, dims, {1, 4}, IndexMode{}, std::nan(""));
    for (Prim s : {Prim::kScatter, Prim::kScatterAdd, Prim::kScatterMul, Prim::kScatterMin, Prim::kScatterMax})
      t = scatter(b, s, t, idx, rows, dims, IndexMode{"fill", true, true});
    t = rev(b, t, {0});
  }
  {  // products, logical reductions and a sort by the first column
    const Params ax0{{"axes", std::vector<int64_t>{0}}};
    const Atom prod = b.emit1(Prim::kReduceProd, ax0, {unary(b, Prim::kTanh, t)});
    const Atom any = b.emit1(Prim::kReduceOr, ax0, {b.emit1(Prim::kReduceAnd, {{"axes", std::vector<int64_t>{1}}},
                                                          {compare(b, Prim::kLt, t, x)})});
    t = add(b, t, broadcast_in_dim(b, prod, {8, 4}, {1}));
    t = add(b, t, b.emit1(Prim::kCumprod, {{"axis", int64_t{1}}, {"reverse", false}}, {unary(b, Prim::kTanh, t)}));
    t = select_n(b, broadcast_in_dim(b, any, {8, 4}, {}), {t, x});
    t = b.emit(Prim::kSort, {{"dimension", int64_t{0}}, {"is_stable", true}, {"num_keys", int64_t{1}}}, {t, x})[1];
  }
  {  // random bits: threefry2x32 of uint32 counters, bit operations, bits made floats; erf, erf_inv, nextafter
    const Atom k = Atom::constant(7, DType::kUInt32);
    const Atom counts = iota(b, DType::kUInt32, {8, 4}, 1);
    const auto bits = b.emit(Prim::kThreefry2x32, {}, {k, k, convert_element_type(b, iota(b, DType::kInt32, {8, 4}, 0), DType::kUInt32), counts});
    Atom w = b.emit1(Prim::kXor, {}, {bits[0], bits[1]});
    w = b.emit1(Prim::kOr, {}, {b.emit1(Prim::kShiftRightLogical, {}, {w, Atom::constant(9, DType::kUInt32)}),
                                Atom::constant(0x3F800000, DType::kUInt32)});
    w = b.emit1(Prim::kAnd, {}, {w, b.emit1(Prim::kNot, {}, {b.emit1(Prim::kShiftLeft, {}, {Atom::constant(1, DType::kUInt32), Atom::constant(3, DType::kUInt32)})})});
    const Atom i = b.emit1(Prim::kShiftRightArithmetic, {}, {convert_element_type(b, w, DType::kInt32), Atom::constant(1, DType::kInt32)});
    const Atom u = sub(b, b.emit1(Prim::kBitcastConvertType, {{"new_dtype", DType::kFloat32}}, {w}), f32_scalar(1.0));
    const Atom e = unary(b, Prim::kErfInv, sub(b, mul(b, unary(b, Prim::kErf, u), f32_scalar(0.5)), f32_scalar(0.1)));
    const Atom small = b.emit1(Prim::kAnd, {}, {i, Atom::constant(7, DType::kInt32)});  // keeps the sums finite
    t = add(b, t, b.emit1(Prim::kIntegerPow, {{"y", int64_t{2}}}, {unary(b, Prim::kTanh, t)}));
    const Sample jit = primitive(Prim::kJit).sample();  // square(x) = x * x
    t = add(b, t, broadcast_in_dim(b, reduce_sum(b, b.emit1(Prim::kJit, jit.params, {slice(b, t, {0, 0}, {2, 3}, {1, 1})}), {0, 1}), {8, 4}, {}));
    const Sample remat = primitive(Prim::kCheckpoint).sample();  // sin(x) * x
    t = add(b, t, broadcast_in_dim(b, reduce_sum(b, b.emit1(Prim::kCheckpoint, remat.params, {slice(b, t, {0, 0}, {2, 3}, {1, 1})}), {0, 1}), {8, 4}, {}));
    t = add(b, t, add(b, b.emit1(Prim::kNextafter, {}, {e, f32_scalar(1.0)}), convert_element_type(b, small, DType::kFloat32)));
  }
  t = add(b, t, broadcast_in_dim(b, reduce_max(b, t, {1}), {8, 4}, {0}));
  t = add(b, t, broadcast_in_dim(b, reduce_min(b, t, {0}), {8, 4}, {1}));
  const Params along1{{"axes", std::vector<int64_t>{1}}, {"index_dtype", DType::kInt32}};
  const Atom am = add(b, b.emit1(Prim::kArgmax, along1, {t}), b.emit1(Prim::kArgmin, along1, {t}));
  t = add(b, b.emit1(Prim::kCumsum, {{"axis", int64_t{0}}, {"reverse", true}}, {t}),
          broadcast_in_dim(b, convert_element_type(b, am, DType::kFloat32), {8, 4}, {0}));
  t = matmul(b, b.emit1(Prim::kStopGradient, {}, {t}), w);
  {  // the decompositions of s = a a^T + 4 I (a = tanh of a block, so s is positive-definite) and of a;
     // squares of the factors whose signs are the algorithms' choice
    const Atom a = unary(b, Prim::kTanh, slice(b, t, {0, 0}, {4, 4}, {1, 1}));
    const Atom eye4 = convert_element_type(
        b, compare(b, Prim::kEq, iota(b, DType::kInt32, {4, 4}, 0), iota(b, DType::kInt32, {4, 4}, 1)), DType::kFloat32);
    const Atom spd = add(b, matmul(b, a, transpose(b, a, {1, 0})), mul(b, eye4, f32_scalar(4)));
    const Atom l = b.emit1(Prim::kCholesky, {}, {spd});
    std::vector<Atom> parts{l, b.emit1(Prim::kTriangularSolve, primitive(Prim::kTriangularSolve).sample().params, {l, a}),
                            b.emit(Prim::kLu, {}, {spd})[0]};
    for (const Atom& f : b.emit(Prim::kQr, primitive(Prim::kQr).sample().params, {spd})) parts.push_back(unary(b, Prim::kSquare, f));
    for (const Atom& f : b.emit(Prim::kEigh, primitive(Prim::kEigh).sample().params, {spd})) parts.push_back(unary(b, Prim::kSquare, f));
    for (const Atom& f : b.emit(Prim::kSvd, primitive(Prim::kSvd).sample().params, {a})) parts.push_back(unary(b, Prim::kSquare, f));
    Atom total = f32_scalar(0);
    for (const Atom& f : parts) {
      std::vector<int64_t> all(f.aval.shape.size());
      std::iota(all.begin(), all.end(), 0);
      total = add(b, total, reduce_sum(b, f, all));
    }
    t = add(b, t, broadcast_in_dim(b, unary(b, Prim::kTanh, mul(b, total, f32_scalar(0.01))), {8, 4}, {}));
  }
  for (Prim call : {Prim::kCustomJvpCall, Prim::kCustomVjpCall}) {  // f(x) = x * x, with its rules
    const Sample s = primitive(call).sample();
    const Atom sq = b.emit1(call, s.params, {slice(b, t, {0, 0}, {2, 3}, {1, 1})});
    t = add(b, t, broadcast_in_dim(b, reduce_sum(b, sq, {0, 1}), {8, 4}, {}));
  }
  {  // cond (x * 2 or x + 1) and scan (c = c * k + x over 4 rows) on their samples' params
    const Sample c = primitive(Prim::kCond).sample(), s = primitive(Prim::kScan).sample();
    const Atom idx = convert_element_type(b, reduce_max(b, convert_element_type(b, compare(b, Prim::kLt, t, x), DType::kInt32), {0, 1}), DType::kInt32);
    const Atom br = b.emit1(Prim::kCond, c.params, {idx, slice(b, t, {0, 0}, {2, 3}, {1, 1})});
    const Atom row = reshape(b, slice(b, br, {0, 0}, {1, 3}, {1, 1}), {3});
    const Atom small = unary(b, Prim::kTanh, row);  // |k| < 1: the values stay finite
    const auto sc = b.emit(Prim::kScan, s.params, {small, small, unary(b, Prim::kTanh, slice(b, t, {0, 0}, {4, 3}, {1, 1}))});
    t = add(b, t, broadcast_in_dim(b, add(b, reduce_sum(b, sc[0], {0}), reduce_sum(b, sc[1], {0, 1})), {8, 4}, {}));
  }
  {  // while (i, x) -> (i + 1, x * k + 1) while i < 3, on its sample's params
    const Sample s = primitive(Prim::kWhile).sample();
    const Atom row = unary(b, Prim::kTanh, reshape(b, slice(b, t, {0, 0}, {1, 3}, {1, 1}), {3}));
    const auto wl = b.emit(Prim::kWhile, s.params, {row, Atom::constant(0, DType::kInt32), row});
    t = add(b, t, broadcast_in_dim(b, reduce_sum(b, wl[1], {0}), {8, 4}, {}));
  }
  {  // reshard: sharded over the mesh's axes, then back to replicated on it
    const std::vector<MeshAxis> axes{{"data", 2}, {"model", 4}};
    t = reshard(b, reshard(b, t, Sharding{axes, {{"data"}, {"model"}}, {}, {}}), Sharding{axes, {}, {}, {}});
  }
  const Atoms out = shard_map(
      b, mesh, {P({{"data"}, {"model"}}), P(), P()}, {P({{"data"}, {"model"}}), P(), P({{"data"}, {"model"}})}, true, {t, w, s},
      [&](Builder& body, const Atoms& in) {
        const Atom g = all_gather(body, in[0], {"model"}, 1, true);  // f32[4,4]{data}
        const Atom gi = all_gather_invariant(body, in[0], {"model"}, 1, true);  // f32[4,4]{data}
        const Atom r = psum_scatter(body, add(body, g, gi), {"model"}, 1, true);  // f32[4,1]
        const Atom p = ppermute(body, r, {"model"}, {{0, 1}, {1, 2}, {2, 3}, {3, 0}});
        const Atom a = all_to_all(body, p, {"data"}, 0, 0, true);
        const Atom idx = convert_element_type(body, axis_index(body, {"model"}), DType::kFloat32);
        const Atom m = add(body, pmax(body, a, {"model"}), pmin(body, a, {"model"}));
        body.emit(Prim::kDebugCallback, {{"callback", int64_t{3}}, {"fmt", std::string()}}, {m, idx});
        const auto d = grad_at(
            body, [&](Builder& fb, const Atoms& v) { return Atoms{reduce_sum(fb, matmul(fb, v[0], v[0]), {0, 1})}; },
            {pvary(body, in[1], {"data", "model"})});
        return Atoms{add(body, m, idx), pmean(body, d.derivs[0], {"data", "model"}), add(body, in[0], in[2])};
      });
  return b.build({out[0], out[1], out[2], f32_scalar(7)});
}

TEST(JsonRead, EveryPrimitiveReadsBackToTheSameProgram) {
  const Program p = every_primitive();
  std::vector<bool> seen(kNumPrims);
  const std::function<void(const Program&)> mark = [&](const Program& q) {
    for (const Eqn& e : q.eqns) {
      seen[static_cast<size_t>(e.prim)] = true;
      for (const Program* body : subprograms(e)) mark(*body);
    }
  };
  mark(p);
  // custom_lin is never in a traced program: a derivative transposes it at once.
  seen[static_cast<size_t>(Prim::kCustomLin)] = true;
  for (size_t k = 0; k < kNumPrims; ++k) EXPECT_TRUE(seen[k]) << primitive(static_cast<Prim>(k)).name << " is not tested";
  const std::string json = to_json(p);
  const Program q = program_from_json(json);
  EXPECT_EQ(to_json(q), json);
  EXPECT_EQ(to_text(q), to_text(p));
}

TEST(JsonRead, TheProgramReadRunsAsTheOriginal) {
  const Program p = every_primitive();
  const Program q = program_from_json(to_json(p));
  const std::vector<exec::HostArray> args = {exec::host_f32({8, 4}, testing::random_floats(32, 1)),
                                             exec::host_f32({4, 4}, testing::random_floats(16, 2)),
                                             exec::host_f32({}, {0.25f})};
  const auto a = exec::interpret(p, args), b = exec::interpret(q, args);
  ASSERT_EQ(a.size(), b.size());
  // Natively, Eigen's small products may group their sums by the buffers'
  // alignment, and the two programs number (so place) their values
  // differently: the results agree to float32 rounding, not always bitwise.
  for (size_t i = 0; i < a.size(); ++i) {
    const auto x = exec::as_floats(a[i]), y = exec::as_floats(b[i]);
    ASSERT_EQ(x.size(), y.size());
    for (size_t k = 0; k < x.size(); ++k) EXPECT_NEAR(x[k], y[k], 1e-5 * (1 + std::abs(x[k]))) << "output " << i << "[" << k << "]";
  }
}

// The error of reading `text`, as "<category>: <message>".
std::string read_error(const std::string& text, const ReadLimits& limits = {}) {
  try {
    program_from_json(text, limits);
  } catch (const Error& e) {
    return std::string(error_kind_name(e.kind())) + ": " + e.what();
  }
  return "no error";
}

// A one-equation program around `eqn` with input a: f32[4].
std::string one_eqn(const std::string& eqn, const std::string& outvar = "{\"name\":\"b\",\"aval\":{\"dtype\":\"float32\",\"shape\":[4]}}") {
  return R"({"invars":[{"name":"a","aval":{"dtype":"float32","shape":[4]}}],"eqns":[)" + eqn + R"(],"outvars":[)" +
         outvar + "]}";
}
const std::string kF4 = R"({"dtype":"float32","shape":[4]})";
std::string var(const std::string& name, const std::string& aval = kF4) {
  return "{\"name\":\"" + name + "\",\"aval\":" + aval + "}";
}

TEST(JsonRead, MalformedTextGetsANamedError) {
  EXPECT_EQ(read_error(""), "ValueError: program: malformed JSON at byte 0: unexpected end of text");
  EXPECT_EQ(read_error("{\"invars\":[],"), "ValueError: program: malformed JSON at byte 13: expected a string key");
  EXPECT_EQ(read_error("[1 2]"), "ValueError: program: malformed JSON at byte 3: expected ',' or ']'");
  EXPECT_EQ(read_error("{} x"), "ValueError: program: malformed JSON at byte 3: unexpected text after the value");
  EXPECT_EQ(read_error("\"\\ud800\""), "ValueError: program: malformed JSON at byte 7: a lone surrogate in a \\u escape");
  EXPECT_EQ(read_error("1e999"), "ValueError: program: malformed JSON at byte 5: a number out of range");
  EXPECT_EQ(read_error("{\"a\":1,\"a\":2}"), "ValueError: program: malformed JSON at byte 10: a repeated key in an object");
  EXPECT_EQ(read_error("[]"), "ValueError: program: the program must be an object, not an array");
  EXPECT_EQ(read_error("{}"), "ValueError: program: the program has no 'invars'");
  EXPECT_EQ(read_error(std::string(100000, '[')), "ValueError: program: malformed JSON at byte 64: nested too deeply");
}

TEST(JsonRead, EquationsAreCheckedByTheRules) {
  const std::string add = R"({"primitive":"add","params":{},"inputs":[)" + var("a") + "," + var("a") + R"(],"outputs":[)" + var("b") + "]}";
  EXPECT_EQ(read_error(one_eqn(add)), "no error");
  EXPECT_NE(read_error(one_eqn(R"({"primitive":"launch","params":{},"inputs":[],"outputs":[]})")).find(
                "ValueError: primitive: unknown primitive 'launch'; valid names are add, add_any, sub"),
            std::string::npos);
  EXPECT_EQ(read_error(one_eqn(R"({"primitive":"add","params":{"x":1},"inputs":[],"outputs":[]})")),
            "ValueError: program: the program equation 0 (add) has an unknown parameter 'x'");
  EXPECT_EQ(read_error(one_eqn(R"({"primitive":"reduce_sum","params":{},"inputs":[],"outputs":[]})")),
            "ValueError: program: the program equation 0 (reduce_sum) lacks the parameter 'axes'");
  // psum's axes are names: [0] (reduce_sum's kind of axes) is not.
  EXPECT_EQ(read_error(one_eqn(R"({"primitive":"psum","params":{"axes":[0]},"inputs":[],"outputs":[]})")),
            "ValueError: program: the program equation 0 (psum) parameter 'axes' must be a string, not a number");
  EXPECT_EQ(read_error(one_eqn(R"({"primitive":"reduce_sum","params":{"axes":[0.5]},"inputs":[],"outputs":[]})")),
            "ValueError: program: the program equation 0 (reduce_sum) parameter 'axes' must be an integer of at most 31 bits, got 0.5");
  EXPECT_EQ(read_error(one_eqn(R"({"primitive":"add","params":{},"inputs":[)" + var("z") + "," + var("a") + R"(],"outputs":[]})")),
            "ValueError: program: the program equation 0 (add) operand uses 'z' before it is defined");
  EXPECT_EQ(read_error(one_eqn(R"({"primitive":"add","params":{},"inputs":[)" + var("a", R"({"dtype":"float32","shape":[5]})") + "," + var("a") + R"(],"outputs":[]})")),
            "ValueError: program: the program equation 0 (add) operand declares 'a' as f32[5] but it is f32[4]");
  EXPECT_EQ(read_error(one_eqn(R"({"primitive":"add","params":{},"inputs":[)" + var("a") + "," + var("a") + R"(],"outputs":[)" + var("a") + "]}")),
            "ValueError: program: the program equation 0 (add) output 'a' is defined twice");
  EXPECT_EQ(read_error(one_eqn(R"({"primitive":"add","params":{},"inputs":[)" + var("a") + "," + var("a") + R"(],"outputs":[]})")),
            "ValueError: program: the program equation 0 (add) names 0 outputs but has 1");
  // The shape rule's own error: a reshape to another element count.
  const std::string reshape = R"({"primitive":"reshape","params":{"new_sizes":[5]},"inputs":[)" + var("a") + R"(],"outputs":[)" + var("b", R"({"dtype":"float32","shape":[5]})") + "]}";
  EXPECT_NE(read_error(one_eqn(reshape)).find("ShapeError: reshape"), std::string::npos);
  // A literal is a scalar.
  EXPECT_EQ(read_error(one_eqn(R"({"primitive":"add","params":{},"inputs":[{"literal":1,"aval":)" + kF4 + "}," + var("a") + R"(],"outputs":[]})")),
            "ValueError: program: the program equation 0 (add) operand: a literal is a scalar, not f32[4]");
}

TEST(JsonRead, ShardMapBodiesAreTracedAgain) {
  const std::string mesh = R"("mesh":{"axis_names":["data"],"shape":[4]})";
  const std::string body = R"({"invars":[)" + var("c", R"({"dtype":"float32","shape":[1],"vma":["data"]})") +
                           R"(],"eqns":[],"outvars":[)" + var("c", R"({"dtype":"float32","shape":[1],"vma":["data"]})") + "]}";
  const auto sm = [&](const std::string& out_specs) {
    return R"({"primitive":"shard_map","params":{"jaxpr":)" + body + "," + mesh +
           R"(,"in_specs":[["data"]],"out_specs":)" + out_specs + R"(,"check_vma":true},"inputs":[)" + var("a") +
           R"(],"outputs":[)" + var("b") + "]}";
  };
  EXPECT_EQ(read_error(one_eqn(sm(R"([["data"]])"))), "no error");
  // An out_spec that drops the axis the body's output varies along is the VMA rule's error.
  EXPECT_NE(read_error(one_eqn(sm("[[]]"))).find("VmaError"), std::string::npos);
  // A body input declared invariant when its block varies.
  const std::string lying = R"({"invars":[)" + var("c", R"({"dtype":"float32","shape":[1]})") + R"(],"eqns":[],"outvars":[]})";
  EXPECT_EQ(read_error(one_eqn(R"({"primitive":"shard_map","params":{"jaxpr":)" + lying + "," + mesh +
                               R"(,"in_specs":[["data"]],"out_specs":[],"check_vma":true},"inputs":[)" + var("a") +
                               R"(],"outputs":[]})", "")),
            "ValueError: program: the program equation 0 (shard_map) body input 'c' is declared f32[1] but is f32[1]{V:data}");
  // A mesh of more devices than any mesh may have.
  EXPECT_NE(read_error(one_eqn(R"({"primitive":"shard_map","params":{"jaxpr":)" + body +
                               R"(,"mesh":{"axis_names":["data"],"shape":[100000]},"in_specs":[["data"]],"out_specs":[["data"]],"check_vma":true},"inputs":[)" +
                               var("a") + R"(],"outputs":[)" + var("b") + "]}"))
                .find("ValueError"),
            std::string::npos);
}

TEST(JsonRead, LimitsBoundTextEquationsMemoryAndWork) {
  ReadLimits small;
  small.max_text_bytes = 10;
  EXPECT_EQ(read_error(one_eqn(""), small), "ResourceError: program: the text has 138 bytes; at most 10 are accepted");
  // 2^31 x 2^31 floats: the byte count does not fit in 62 bits.
  const std::string huge = R"({"primitive":"broadcast_in_dim","params":{"shape":[2147483647,2147483647,4],"broadcast_dimensions":[2]},"inputs":[)" +
                           var("a") + R"(],"outputs":[]})";
  EXPECT_NE(read_error(one_eqn(huge)).find("Error"), std::string::npos);
  EXPECT_EQ(read_error(one_eqn(huge)).find("no error"), std::string::npos);
  // 512 MiB: within the device memory (the rules accept it), over the reader's 256 MiB a value.
  const std::string big = R"({"primitive":"broadcast_in_dim","params":{"shape":[16384,8192],"broadcast_dimensions":[1]},"inputs":[)" +
                          var("a", R"({"dtype":"float32","shape":[8192]})") + R"(],"outputs":[]})";
  const std::string prog = R"({"invars":[)" + var("a", R"({"dtype":"float32","shape":[8192]})") + R"(],"eqns":[)" + big + R"(],"outvars":[]})";
  EXPECT_EQ(read_error(prog),
            "ResourceError: program: the program equation 0 (broadcast_in_dim) output is f32[16384,8192] (536870912 bytes); "
            "a value may have at most 268435456 bytes");
  ReadLimits few;
  few.max_equations = 2;
  const std::string neg = R"({"primitive":"neg","params":{},"inputs":[)" + var("a") + R"(],"outputs":[)";
  const std::string three = R"({"invars":[)" + var("a") + R"(],"eqns":[)" + neg + var("b") + "]}," + neg + var("c") +
                            "]}," + neg + var("d") + R"(]}],"outvars":[]})";
  EXPECT_EQ(read_error(three, few), "ResourceError: program: it has more than 2 equations");
  ReadLimits little_work;
  little_work.max_work = 8;
  EXPECT_EQ(read_error(three, little_work),
            "ResourceError: program: one run would take more than 8 element operations (at the program equation 2 (neg))");
}

}  // namespace
}  // namespace shardlab::ir
