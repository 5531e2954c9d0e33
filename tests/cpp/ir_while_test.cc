// jax.lax.while_loop: the printed program against JAX's (fori_loop with a
// traced bound, as make_jaxpr prints it), values against loops written out
// here, the JVP against finite differences, JAX's reverse-mode error, loops
// with collectives inside a shard_map on 1-D and 2-D meshes on both
// executors (bitwise equal), the VMA error for a varying predicate around a
// collective, and a loop that never ends stopped by DevicePool::cancel with
// the runtime usable afterwards.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "exec/lockstep_program.h"
#include "exec/threaded.h"
#include "ir/tracing/autodiff.h"
#include "ir/tracing/control_flow.h"
#include "ir/transforms/jvp.h"
#include "ir/tracing/ops.h"
#include "ir/tracing/parallel_ops.h"
#include "lax_calls.h"
#include "ir/forms/print.h"
#include "ir_checks.h"
#include "runtime/collectives/communicator.h"
#include "test_util.h"

namespace shardlab::ir {
namespace {

using Atoms = std::vector<Atom>;
using exec::as_floats;
using exec::as_ints;
using exec::host_f32;
using exec::host_i32;

const Atom kOne = Atom::constant(1, DType::kInt32);

// while_loop(cond, body, init) from two C++ functions of the carries.
Atoms while_loop(Builder& b, const Atoms& init, const std::function<Atom(Builder&, const Atoms&)>& cond,
                 const std::function<Atoms(Builder&, const Atoms&)>& body) {
  WhileTrace w(b, init);
  Builder& c = w.begin_cond();
  w.end_cond(cond(c, w.inputs()));
  Builder& f = w.begin_body();
  return w.finish(body(f, w.inputs()));
}

TEST(While, PrintsAsJax) {
  // jax.make_jaxpr(lambda x: lax.fori_loop(0, x, lambda i, v: v + i, 0))(5), as JAX 0.11 prints it.
  Builder b;
  const Atom x = b.input(Aval{DType::kInt32, {}, {}});
  const Atom zero = Atom::constant(0, DType::kInt32);
  const Atoms r = while_loop(
      b, {zero, x, zero}, [](Builder& c, const Atoms& v) { return compare(c, Prim::kLt, v[0], v[1]); },
      [](Builder& f, const Atoms& v) { return Atoms{add(f, v[0], kOne), v[1], add(f, v[2], v[0])}; });
  EXPECT_EQ(to_text(b.build({r[2]})),
            "{ lambda ; a:i32[]. let\n"
            "    _:i32[] _:i32[] b:i32[] = while[\n"
            "      body_jaxpr={ lambda ; c:i32[] d:i32[] e:i32[]. let\n"
            "          f:i32[] = add c 1:i32[]\n"
            "          g:i32[] = add e c\n"
            "        in (f, d, g) }\n"
            "      body_nconsts=0\n"
            "      cond_jaxpr={ lambda ; h:i32[] i:i32[] j:i32[]. let k:bool[] = lt h i in (k,) }\n"
            "      cond_nconsts=0\n"
            "    ] 0:i32[] a 0:i32[]\n"
            "  in (b,) }");
  for (int n : {0, 1, 5, 100}) {
    const auto out = exec::interpret(b.build({r[2]}), {host_i32({}, {n})});
    EXPECT_EQ(as_ints(out[0])[0], n > 0 ? n * (n - 1) / 2 : 0) << n;
  }
}

// x -> (x * 1.5 + k) until every entry is past `limit`, counting the steps
// (a data-dependent trip count, with a body const k and a cond const limit).
Atoms grow(Builder& b, const Atom& x, const Atom& k, const Atom& limit) {
  return while_loop(
      b, {Atom::constant(0, DType::kInt32), x},
      [&](Builder& c, const Atoms& v) { return compare(c, Prim::kLt, reduce_min(c, v[1], {0}), limit); },
      [&](Builder& f, const Atoms& v) { return Atoms{add(f, v[0], kOne), add(f, mul(f, v[1], f32_scalar(1.5)), k)}; });
}

TEST(While, ValuesAgainstALoop) {
  Builder b;
  const Atom x = b.input(f32({3})), k = b.input(f32({3})), limit = b.input(f32({}));
  const Program p = b.build(grow(b, x, k, limit));
  const std::vector<float> xv{0.5f, 2, 0.25f}, kv{1, 0.5f, 2};
  for (float lim : {-1.0f, 10.0f, 1000.0f}) {
    std::vector<float> ref = xv;
    int steps = 0;
    while (std::min({ref[0], ref[1], ref[2]}) < lim) {
      for (int j = 0; j < 3; ++j) ref[j] = ref[j] * 1.5f + kv[j];
      ++steps;
    }
    const auto out = exec::interpret(p, {host_f32({3}, xv), host_f32({3}, kv), host_f32({}, {lim})});
    EXPECT_EQ(as_ints(out[0])[0], steps) << lim;
    EXPECT_EQ(as_floats(out[1]), ref) << lim;  // the same float32 operations in the same order
  }
}

TEST(While, JvpAgainstFiniteDifferencesAndNoReverseMode) {
  // Four steps of x -> tanh(x) * k + x (the counter is a carry; k a body const).
  const Body f = [](Builder& b, const Atoms& a) {
    return while_loop(
        b, {Atom::constant(0, DType::kInt32), a[0]},
        [](Builder& c, const Atoms& v) { return compare(c, Prim::kLt, v[0], Atom::constant(4, DType::kInt32)); },
        [&](Builder& g, const Atoms& v) {
          return Atoms{add(g, v[0], kOne), add(g, mul(g, unary(g, Prim::kTanh, v[1]), a[1]), v[1])};
        })[1];
  };
  check_jvp(f, {f32({3}), f32({3})});
  {  // With respect to x alone, as JAX's rule: the int counter and k carry no tangent.
    Builder b;
    const Atom x = b.input(f32({3})), k = b.input(f32({3}));
    const Program j = jvp(b.build({f(b, {x, k})}), {true, false});
    const Eqn& loop = j.eqns.back();
    ASSERT_EQ(loop.prim, Prim::kWhile);
    EXPECT_EQ(loop.outputs.size(), 3u);                           // i, y, dy
    EXPECT_EQ(param<int64_t>(loop.params, "body_nconsts", ""), 1);  // k
  }
  Builder b;
  const Atom x = b.input(f32({3})), k = b.input(f32({3}));
  const std::string msg = testing::error_message([&] {
    grad_at(b, [&](Builder& g, const Atoms& a) { return Atoms{reduce_sum(g, f(g, {a[0], k}), {0})}; }, {x});
  });
  EXPECT_NE(msg.find("Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop with dynamic "
                     "start/stop values. Try using lax.scan, or using fori_loop with static start/stop."),
            std::string::npos)
      << msg;
}

// Power iteration in a shard_map: each device holds rows of A (f32[8, 8]
// split over every device of the mesh), v is replicated; v <- A v / |A v|
// (the rows gathered back with a psum of zero-padded blocks) until the
// change is below tol (an invariant predicate, from the psum): a trip count
// known only as it runs, a collective in every iteration.
Program power_iteration(const std::shared_ptr<const Mesh>& mesh, const AxisNames& axes) {
  Builder b;
  const Atom a = b.input(f32({8, 8})), v0 = b.input(f32({8}));
  PartitionSpec rows{{axes}};
  const Atoms out = shard_map(b, mesh, {rows, PartitionSpec{}}, {PartitionSpec{}, PartitionSpec{}}, true, {a, v0},
                              [&](Builder& body, const Atoms& in) {
                                const Atom blk = in[0];  // f32[8 / n, 8]
                                const int64_t n = 8 / blk.aval.shape[0];
                                const Atom pos = axis_index(body, axes);
                                const Atoms r = while_loop(
                                    body, {Atom::constant(0, DType::kInt32), in[1], f32_scalar(1)},
                                    [](Builder& c, const Atoms& v) {
                                      return compare(c, Prim::kGt, v[2], f32_scalar(1e-5));
                                    },
                                    [&](Builder& g, const Atoms& v) {
                                      const Atom part = dot_general(g, blk, v[1], {{1}, {0}, {}, {}});  // f32[8 / n]
                                      // my rows at their place in a zero f32[8], summed over the devices
                                      const Atom placed = dynamic_update_slice(
                                          g, pvary(g, zeros_like(g, f32({8})), axes), part,
                                          {mul(g, pos, Atom::constant(static_cast<double>(8 / n), DType::kInt32))});
                                      const Atom av = psum(g, placed, axes);
                                      const Atom norm = unary(g, Prim::kSqrt, reduce_sum(g, mul(g, av, av), {0}));
                                      const Atom next = div(g, av, norm);
                                      const Atom d = sub(g, next, v[1]);
                                      return Atoms{add(g, v[0], kOne), next, reduce_sum(g, mul(g, d, d), {0})};
                                    });
                                return Atoms{r[0], r[1]};
                              });
  return b.build({out[0], out[1]});
}

TEST(While, PowerIterationInAShardMapOnOneAndTwoDimensionalMeshes) {
  // A symmetric matrix with a dominant eigenvalue; the reference iterates in double.
  std::vector<float> av(64);
  const auto r = testing::random_floats(64, 3);
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) av[i * 8 + j] = 0.1f * (r[i * 8 + j] + r[j * 8 + i]) + (i == j ? (i == 0 ? 4.0f : 1.0f) : 0);
  const std::vector<float> v0(8, 1.0f);
  std::vector<double> v(v0.begin(), v0.end());
  for (int it = 0; it < 200; ++it) {
    std::vector<double> w(8, 0);
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j) w[i] += av[i * 8 + j] * v[j];
    double s = 0;
    for (double x : w) s += x * x;
    for (int i = 0; i < 8; ++i) v[i] = w[i] / std::sqrt(s);
  }
  for (const auto& [shape, names] : std::vector<std::pair<std::vector<int>, std::vector<std::string>>>{
           {{8}, {"i"}}, {{2, 4}, {"a", "b"}}}) {
    auto mesh = testing::make_mesh(shape, names);
    const auto out = run_both(power_iteration(mesh, names), mesh, {host_f32({8, 8}, av), host_f32({8}, v0)});
    const int steps = as_ints(out[0])[0];
    EXPECT_GT(steps, 2);
    EXPECT_LT(steps, 200);
    const auto got = as_floats(out[1]);
    for (int i = 0; i < 8; ++i) EXPECT_NEAR(got[i], v[i], 1e-3) << i;
  }
}

TEST(While, AVaryingPredicateAroundACollectiveIsAnError) {
  auto mesh = testing::make_mesh({8}, {"i"});
  Builder b;
  const Atom x = b.input(f32({8}));
  const std::string msg = testing::error_message([&] {
    shard_map(b, mesh, {PartitionSpec{{{"i"}}}}, {PartitionSpec{{{"i"}}}}, true, {x}, [](Builder& body, const Atoms& blk) {
      return Atoms{while_loop(
          body, {blk[0]},
          [](Builder& c, const Atoms& v) { return compare(c, Prim::kLt, reduce_sum(c, v[0], {0}), f32_scalar(100)); },
          [](Builder& g, const Atoms& v) { return Atoms{add(g, v[0], psum(g, v[0], {"i"}))}; })[0]};
    });
  });
  EXPECT_NE(msg.find("while_loop: the predicate varies across devices along ('i',), but the loop performs psum"),
            std::string::npos)
      << msg;
}

// Runs `p` on the pool and cancels it after 100 ms: the job ends with a
// CancelledError, and the next job on the same pool and communicator works.
void expect_cancelled(const Program& p, const std::shared_ptr<const Mesh>& mesh, const std::vector<float>& xv) {
  Communicator comm(mesh);
  auto exe = std::make_shared<exec::Executable>(std::make_shared<const Program>(p));
  const auto x = ShardedArray::put(mesh, DType::kFloat32, {8}, PartitionSpec{}, xv.data());
  std::thread canceller([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    testing::pool().cancel();
  });
  const std::string msg = testing::error_message([&] { exec::run_program(testing::pool(), comm, exe, {x}); });
  canceller.join();
  EXPECT_NE(msg.find("cancelled"), std::string::npos) << msg;
  // The runtime stays usable: a loop that ends (x < 0 from the start) runs on the same pool.
  const std::vector<float> neg(8, -1.0f);
  const auto y = ShardedArray::put(mesh, DType::kFloat32, {8}, PartitionSpec{}, neg.data());
  const auto out = exec::run_program(testing::pool(), comm, exe, {y});
  std::vector<float> got(8);
  out[0].get(got.data(), false);
  EXPECT_EQ(got, neg);
}

TEST(While, ALoopThatNeverEndsIsCancelledAndTheRuntimeStaysUsable) {
  auto mesh = testing::make_mesh({8}, {"i"});
  // In a shard_map, with a psum in every iteration: x <- psum(x) / 8 while sum(x) >= 0.
  {
    Builder b;
    const Atom x = b.input(f32({8}));
    const Atoms out = shard_map(b, mesh, {PartitionSpec{}}, {PartitionSpec{}}, true, {x}, [](Builder& body, const Atoms& in) {
      return Atoms{while_loop(
          body, {in[0]},
          [](Builder& c, const Atoms& v) { return compare(c, Prim::kGe, reduce_sum(c, v[0], {0}), f32_scalar(0)); },
          [](Builder& g, const Atoms& v) { return Atoms{div(g, psum(g, v[0], {"i"}), f32_scalar(8))}; })[0]};
    });
    expect_cancelled(b.build(out), mesh, std::vector<float>(8, 1.0f));
  }
  // At the top level, on device 0 alone: x <- x + 1 while sum(x) >= 0.
  {
    Builder b;
    const Atom x = b.input(f32({8}));
    const Atoms out = while_loop(
        b, {x}, [](Builder& c, const Atoms& v) { return compare(c, Prim::kGe, reduce_sum(c, v[0], {0}), f32_scalar(0)); },
        [](Builder& g, const Atoms& v) { return Atoms{add(g, v[0], f32_scalar(1))}; });
    expect_cancelled(b.build(out), mesh, std::vector<float>(8, 1.0f));
  }
}

TEST(While, DevicesDisagreeingWithoutCheckVmaFailOnBothExecutors) {
  // check_vma=False: nothing proves the predicate the same everywhere; device
  // d's block of x is d, and it loops while its carry is below that, around a
  // psum the others do not meet as often.
  auto mesh = testing::make_mesh({8}, {"i"});
  Builder b;
  const Atom x = b.input(f32({8}));
  const Atoms out = shard_map(b, mesh, {PartitionSpec{{{"i"}}}}, {PartitionSpec{{{"i"}}}}, false, {x}, [](Builder& body, const Atoms& in) {
    return Atoms{while_loop(
        body, {sub(body, in[0], in[0])},
        [&](Builder& c, const Atoms& v) { return compare(c, Prim::kLt, reduce_sum(c, v[0], {0}), reduce_sum(c, in[0], {0})); },
        [](Builder& g, const Atoms& v) { return Atoms{add(g, v[0], psum(g, f32_scalar(1), {"i"}))}; })[0]};
  });
  const Program p = b.build(out);
  const std::vector<float> xv{0, 1, 2, 3, 4, 5, 6, 7};
  const std::string lockstep = testing::error_message([&] { exec::interpret(p, {host_f32({8}, xv)}); });
  EXPECT_NE(lockstep.find("performs psum, which every device must meet as many times"), std::string::npos) << lockstep;
  Communicator comm(mesh);
  const auto arg = ShardedArray::put(mesh, DType::kFloat32, {8}, PartitionSpec{}, xv.data());
  const std::string threaded = testing::error_message(
      [&] { exec::run_program(testing::pool(), comm, std::make_shared<exec::Executable>(std::make_shared<const Program>(p)), {arg}); });
  EXPECT_NE(threaded.find("psum"), std::string::npos) << threaded;
}

}  // namespace
}  // namespace shardlab::ir
