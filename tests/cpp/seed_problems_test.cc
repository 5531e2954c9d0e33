// The two seed problems (problems/*/statement.md) written with the C++ builder as
// their hints suggest: every example reproduced to 1e-5 by both executors,
// random cases against float64 references, the printed programs as
// snapshots, and the "forgot pcast" data-parallel step giving 8x the gradient.
#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include "exec/lockstep_program.h"
#include "ir/tracing/autodiff.h"
#include "ir/tracing/ops.h"
#include "ir/tracing/parallel_ops.h"
#include "lax_calls.h"
#include "ir/forms/print.h"
#include "ir_checks.h"
#include "test_util.h"

namespace shardlab::ir {
namespace {

using exec::as_floats;
using exec::host_f32;
using Atoms = std::vector<Atom>;

PartitionSpec P(std::vector<std::vector<std::string>> entries = {}) { return PartitionSpec{std::move(entries)}; }

// x @ w + b (b broadcast over rows).
Atom affine(Builder& b, const Atom& x, const Atom& w, const Atom& bias) {
  const Atom xw = matmul(b, x, w);
  return add(b, xw, broadcast_in_dim(b, bias, xw.aval.shape, {1}));
}

// The data-parallel step: every device differentiates the mean squared error
// of its block of the batch; pmean averages losses and gradients. With
// `pcast`, the parameters are first made varying (per-device gradients);
// without, their gradients come out summed over the devices, as in JAX.
Program data_parallel_step(int n, int d, int k, bool pcast) {
  const auto mesh = testing::make_mesh({8}, {"data"});
  Builder b;
  const Atom w = b.input(f32({d, k})), bias = b.input(f32({k}));
  const Atom x = b.input(f32({n, d})), y = b.input(f32({n, k})), lr = b.input(f32({}));
  const Atoms out = shard_map(b, mesh, {P(), P(), P({{"data"}}), P({{"data"}})}, {P(), P(), P()}, true, {w, bias, x, y},
                              [&](Builder& body, const Atoms& in) {
                                const Atom xs = in[2], ys = in[3];
                                Atoms params = {in[0], in[1]};
                                if (pcast) params = {pvary(body, in[0], {"data"}), pvary(body, in[1], {"data"})};
                                const auto g = grad_at(
                                    body,
                                    [&](Builder& fb, const Atoms& p) {
                                      const Atom err = sub(fb, affine(fb, xs, p[0], p[1]), ys);
                                      const Atom sq = reduce_sum(fb, unary(fb, Prim::kSquare, err), {0, 1});
                                      return Atoms{div(fb, sq, f32_scalar(static_cast<double>(xs.aval.shape[0])))};
                                    },
                                    params);
                                const Atom gw = pmean(body, g.derivs[0], {"data"}),
                                           gb = pmean(body, g.derivs[1], {"data"});
                                return Atoms{sub(body, in[0], mul(body, lr, gw)), sub(body, in[1], mul(body, lr, gb)),
                                             pmean(body, g.outputs[0], {"data"})};
                              });
  return b.build(out);
}

// The tensor-parallel MLP: w1, b1 split by hidden columns, w2 by rows; each
// device's partial output is psum'd, b2 added once outside.
Program tensor_parallel_mlp(int batch, int d, int h, int o) {
  const auto mesh = testing::make_mesh({8}, {"model"});
  Builder b;
  const Atom x = b.input(f32({batch, d})), w1 = b.input(f32({d, h})), b1 = b.input(f32({h}));
  const Atom w2 = b.input(f32({h, o})), b2 = b.input(f32({o}));
  const Atoms out = shard_map(b, mesh, {P(), P({{}, {"model"}}), P({{"model"}}), P({{"model"}, {}})},
                              {P(), P({{}, {"model"}})}, true, {x, w1, b1, w2}, [](Builder& body, const Atoms& in) {
                                const Atom pre = affine(body, in[0], in[1], in[2]);
                                const Atom hidden = max(body, pre, f32_scalar(0));
                                return Atoms{psum(body, matmul(body, hidden, in[3]), {"model"}), hidden};
                              });
  return b.build({add(b, out[0], broadcast_in_dim(b, b2, out[0].aval.shape, {1})), out[1]});
}

void expect_near(const std::vector<float>& got, const std::vector<double>& want, double tol, const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << what << "[" << i << "]";
}

struct StepExample {
  int n, d, k;
  std::vector<float> w, b, x, y;
  float lr;
  std::vector<double> w_out, b_out;
  double loss;
};

// The statement's examples, with their published outputs.
std::vector<StepExample> step_examples() {
  return {
      {8, 1, 1, {0}, {0}, {1, 2, 3, 4, 5, 6, 7, 8}, {3, 5, 7, 9, 11, 13, 15, 17}, 0.01f, {1.11}, {0.2}, 121.0},
      {16,
       2,
       1,
       {0.1f, 0.3f},
       {0},
       {0.2f, 0.1f,  0.7f, 0.8f, 0.2f,  -0.7f, -1.3f, -3.2f, -0.9f, -0.8f, 0.1f, 0.3f, 0.3f,  -0.3f, -0.4f, 0.2f,
        0.1f, -0.5f, 0.4f, 0.2f, -0.6f, 0.5f,  0.1f,  -0.2f, 0.5f,  0.0f,  1.0f, 1.0f, -0.1f, 0.4f,  -0.9f, -0.4f},
       {-0.8f, -0.4f, -0.3f, 0.1f, -0.6f, -0.3f, -0.6f, -0.7f, 0.1f, -0.2f, -0.4f, -0.4f, -0.7f, 0.2f, -0.1f, -0.3f},
       0.1f,
       {0.072288, 0.239088},
       {-0.057},
       0.303913},
      {8,
       2,
       2,
       {0.1f, 1.0f, -1.3f, -0.4f},
       {-0.2f, -0.3f},
       {-0.5f, 0.8f, 0.4f, -0.4f, -0.9f, -0.1f, 0.8f, 0.7f, 2.0f, 0.0f, -0.7f, -0.4f, -0.2f, -0.4f, -0.9f, 0.1f},
       {-0.7f, 1.1f, 0.6f, -0.6f, 0.1f, 1.3f, -1.0f, -0.2f, 0.2f, -1.1f, 0.0f, 1.0f, -0.3f, 0.6f, -0.5f, 1.0f},
       0.05f,
       {0.104475, 0.8363, -1.291212, -0.39135},
       {-0.195125, -0.22975},
       3.745738},
  };
}

std::vector<exec::HostArray> step_inputs(const StepExample& e) {
  return {host_f32({e.d, e.k}, e.w), host_f32({e.k}, e.b), host_f32({e.n, e.d}, e.x), host_f32({e.n, e.k}, e.y),
          host_f32({}, {e.lr})};
}

TEST(DataParallelStep, ReproducesEveryExample) {
  const auto mesh = testing::make_mesh({8}, {"data"});
  for (const StepExample& e : step_examples()) {
    const auto out = run_both(data_parallel_step(e.n, e.d, e.k, true), mesh, step_inputs(e));
    expect_near(as_floats(out[0]), e.w_out, 1e-5, "w");
    expect_near(as_floats(out[1]), e.b_out, 1e-5, "b");
    expect_near(as_floats(out[2]), {e.loss}, 1e-5 * std::max(1.0, e.loss), "loss");
  }
}

// The step in float64 from its formula: returns w', b', L.
std::vector<std::vector<double>> step_reference(const StepExample& e) {
  std::vector<double> gw(e.d * e.k, 0), gb(e.k, 0);
  double loss = 0;
  for (int n = 0; n < e.n; ++n)
    for (int k = 0; k < e.k; ++k) {
      double pred = e.b[k];
      for (int d = 0; d < e.d; ++d) pred += static_cast<double>(e.x[n * e.d + d]) * e.w[d * e.k + k];
      const double err = pred - e.y[n * e.k + k];
      loss += err * err / e.n;
      gb[k] += 2 * err / e.n;
      for (int d = 0; d < e.d; ++d) gw[d * e.k + k] += 2 * err * e.x[n * e.d + d] / e.n;
    }
  std::vector<double> w(e.d * e.k), b(e.k);
  for (size_t i = 0; i < w.size(); ++i) w[i] = e.w[i] - static_cast<double>(e.lr) * gw[i];
  for (size_t i = 0; i < b.size(); ++i) b[i] = e.b[i] - static_cast<double>(e.lr) * gb[i];
  return {w, b, {loss}};
}

TEST(DataParallelStep, RandomCasesMatchAFloat64ReferenceAndForgettingPcastGives8xTheGradient) {
  const auto mesh = testing::make_mesh({8}, {"data"});
  uint32_t seed = 100;
  for (const auto& [n, d, k] : std::vector<std::array<int, 3>>{{32, 4, 3}, {16, 1, 2}, {24, 3, 1}}) {
    StepExample e{n,
                  d,
                  k,
                  testing::random_floats(d * k, seed++),
                  testing::random_floats(k, seed++),
                  testing::random_floats(n * d, seed++),
                  testing::random_floats(n * k, seed++),
                  0.1f,
                  {},
                  {},
                  0};
    const auto ref = step_reference(e);
    const auto right = run_both(data_parallel_step(n, d, k, true), mesh, step_inputs(e));
    expect_near(as_floats(right[0]), ref[0], 1e-5, "w");
    expect_near(as_floats(right[1]), ref[1], 1e-5, "b");
    expect_near(as_floats(right[2]), ref[2], 1e-5, "loss");
    // Without pcast the update moves 8 times as far.
    const auto forgot = run_both(data_parallel_step(n, d, k, false), mesh, step_inputs(e));
    const auto wf = as_floats(forgot[0]);
    for (size_t i = 0; i < wf.size(); ++i) EXPECT_NEAR(e.w[i] - wf[i], 8 * (e.w[i] - ref[0][i]), 1e-4) << i;
  }
}

TEST(DataParallelStep, PrintedProgram) {
  EXPECT_EQ(to_text(data_parallel_step(16, 2, 1, true)),
            R"(let jaxpr = { lambda ; a:f32[] b:f32[2,1] c:f32[1] d:f32[2,2]{V:data} e:f32[2,1]{V:data}. let
    f:f32[2,1]{V:data} = pvary[axes=('data',)] b
    g:f32[1]{V:data} = pvary[axes=('data',)] c
    h:f32[]{V:data} = pvary[axes=('data',)] 1.0:f32[]
    i:f32[2,1]{V:data} = dot_general[
      dimension_numbers=(([1], [0]), ([], []))
      preferred_element_type=float32
    ] d f
    j:f32[2,1]{V:data} = broadcast_in_dim[broadcast_dimensions=(1,)] g
    k:f32[2,1]{V:data} = add i j
    l:f32[2,1]{V:data} = sub k e
    m:f32[2,1]{V:data} = square l
    n:f32[]{V:data} = pvary[axes=('data',)] 2.0:f32[]
    o:f32[2,1]{V:data} = mul n l
    p:f32[]{V:data} = reduce_sum[axes=(0, 1) out_sharding=None] m
    q:f32[]{V:data} = pvary[axes=('data',)] 2.0:f32[]
    r:f32[]{V:data} = div p q
    s:f32[]{V:data} = div h q
    t:f32[2,1]{V:data} = broadcast_in_dim s
    u:f32[2,1]{V:data} = mul t o
    v:f32[1]{V:data} = reduce_sum[axes=(0,) out_sharding=None] u
    w:f32[1,2]{V:data} = dot_general[
      dimension_numbers=(([0], [0]), ([], []))
      preferred_element_type=float32
    ] u d
    x:f32[2,1]{V:data} = transpose[permutation=(1, 0)] w
    y:f32[2,1] = psum[axes=('data',)] x
    z:f32[2,1] = div y 8.0:f32[]
    ba:f32[1] = psum[axes=('data',)] v
    bb:f32[1] = div ba 8.0:f32[]
    bc:f32[2,1] = mul a z
    bd:f32[2,1] = sub b bc
    be:f32[1] = mul a bb
    bf:f32[1] = sub c be
    bg:f32[] = psum[axes=('data',)] r
    bh:f32[] = div bg 8.0:f32[]
  in (bd, bf, bh) } in
{ lambda ; bi:f32[2,1] bj:f32[1] bk:f32[16,2] bl:f32[16,1] bm:f32[]. let
    bn:f32[2,1] bo:f32[1] bp:f32[] = shard_map[
      check_vma=True
      in_specs=(P(), P(), P(), P('data'), P('data'))
      jaxpr=jaxpr
      mesh=Mesh('data': 8)
      out_specs=(P(), P(), P())
    ] bm bi bj bk bl
  in (bn, bo, bp) })");
}

struct MlpExample {
  int batch, d, h, o;
  std::vector<float> x, w1, b1, w2, b2;
  std::vector<double> out, hidden;
};

std::vector<MlpExample> mlp_examples() {
  return {
      {1,
       2,
       8,
       1,
       {0.0f, 0.5f},
       {-0.8f, 0.2f, -1.2f, -0.7f, -0.1f, 0.9f, -1.4f, 1.0f, 1.3f, -0.4f, 0.7f, 1.4f, 1.7f, 0.6f, -0.6f, -0.9f},
       {-0.1f, -0.1f, 0.0f, -0.1f, 0.3f, 0.4f, -0.3f, 0.1f},
       {1.1f, 0.0f, 1.4f, 0.2f, 0.5f, 0.0f, 0.2f, -1.0f},
       {0.6f},
       {2.39},
       {0.55, 0.0, 0.35, 0.6, 1.15, 0.7, 0.0, 0.0}},
      {2,
       3,
       8,
       2,
       {0.0f, 0.8f, 0.7f, -0.1f, 0.4f, -0.3f},
       {-0.8f, 0.7f, 0.5f, 0.2f,  0.0f, -0.9f, 0.8f,  0.1f, 0.0f,  0.2f, -0.6f, 0.2f,
        0.4f,  1.5f, 0.1f, -0.7f, 1.3f, 0.2f,  -0.1f, 0.2f, -1.3f, 0.0f, 0.0f,  -1.2f},
       {0.6f, -0.4f, 0.3f, 0.2f, -0.3f, 0.4f, 0.0f, 0.3f},
       {0.0f, -0.4f, 0.8f, -0.5f, -0.6f, 0.5f, 0.0f, -0.4f, 0.0f, -0.4f, 0.9f, -0.2f, 0.9f, -0.1f, 0.6f, 0.2f},
       {-0.4f, 0.1f},
       {1.112, -1.032, 0.779, -0.32},
       {1.51, 0.0, 0.0, 0.5, 0.0, 1.6, 0.08, 0.0, 0.29, 0.0, 0.04, 0.2, 0.25, 1.09, 0.0, 0.37}},
      {3,
       2,
       16,
       2,
       {-1.6f, 1.8f, -0.3f, -0.9f, -0.5f, -0.3f},
       {0.5f, -0.6f, -0.8f, -0.7f, 0.3f,  0.2f,  0.9f,  1.2f, 0.2f,  0.3f,  -0.8f, 0.8f, 1.5f, -1.2f, -1.2f, -0.9f,
        0.8f, 1.0f,  0.1f,  0.0f,  -1.4f, -1.0f, -0.3f, 1.2f, -0.5f, -0.6f, 0.5f,  0.5f, 1.5f, 0.0f,  0.6f,  -0.2f},
       {0.3f, 0.1f, 0.0f, 0.0f, 0.4f, -0.1f, 0.7f, 0.0f, 0.5f, -0.1f, 0.6f, -0.3f, -0.2f, -0.2f, -0.2f, -0.2f},
       {0.2f, -0.4f, -0.5f, 0.4f,  0.3f,  -0.4f, 0.0f,  0.4f,  -0.1f, 0.0f,  0.3f,  -0.4f, 0.3f, 0.4f, 0.2f,  -0.7f,
        0.2f, 0.1f,  0.0f,  -0.2f, -0.7f, 0.8f,  -0.1f, -0.1f, 0.6f,  -0.7f, -0.9f, 0.3f,  0.4f, 0.4f, -0.3f, -0.3f},
       {-0.2f, 0.5f},
       {-3.534, 4.49, -0.194, 0.812, -0.924, 1.478},
       {0.94, 2.86, 1.46, 1.12, 0.0,  0.0,  0.0,  0.24, 0.0,  0.0,  2.78, 0.0, 0.1, 1.72, 2.8,  0.88,
        0.0,  0.0,  0.15, 0.21, 1.57, 0.74, 0.7,  0.0,  0.89, 0.35, 0.39, 0.0, 0.0, 0.16, 0.0,  0.25,
        0.0,  0.1,  0.37, 0.35, 0.67, 0.1,  0.34, 0.0,  0.55, 0.0,  0.85, 0.0, 0.0, 0.4,  0.22, 0.31}},
  };
}

std::vector<exec::HostArray> mlp_inputs(const MlpExample& e) {
  return {host_f32({e.batch, e.d}, e.x), host_f32({e.d, e.h}, e.w1), host_f32({e.h}, e.b1), host_f32({e.h, e.o}, e.w2),
          host_f32({e.o}, e.b2)};
}

TEST(TensorParallelMlp, ReproducesEveryExampleWithHiddenLeftSplitByColumns) {
  const auto mesh = testing::make_mesh({8}, {"model"});
  for (const MlpExample& e : mlp_examples()) {
    const Program p = tensor_parallel_mlp(e.batch, e.d, e.h, e.o);
    const auto out = run_both(p, mesh, mlp_inputs(e));
    expect_near(as_floats(out[0]), e.out, 1e-5, "out");
    expect_near(as_floats(out[1]), e.hidden, 1e-5, "hidden");
    // hidden comes straight out of the shard_map, split by columns.
    EXPECT_EQ(p.outvars[1].var, p.eqns[0].outputs[1]);
    EXPECT_EQ(param<Specs>(p.eqns[0].params, "out_specs", "test")[1].str(), "P(None, 'model')");
  }
}

TEST(TensorParallelMlp, RandomCasesMatchAFloat64Reference) {
  const auto mesh = testing::make_mesh({8}, {"model"});
  uint32_t seed = 200;
  for (const auto& [batch, d, h, o] : std::vector<std::array<int, 4>>{{4, 5, 32, 4}, {1, 1, 8, 1}, {3, 4, 24, 2}}) {
    MlpExample e{batch,
                 d,
                 h,
                 o,
                 testing::random_floats(batch * d, seed++),
                 testing::random_floats(d * h, seed++),
                 testing::random_floats(h, seed++),
                 testing::random_floats(h * o, seed++),
                 testing::random_floats(o, seed++),
                 {},
                 {}};
    std::vector<double> hidden(batch * h), out(batch * o);
    for (int r = 0; r < batch; ++r) {
      for (int j = 0; j < h; ++j) {
        double s = e.b1[j];
        for (int i = 0; i < d; ++i) s += static_cast<double>(e.x[r * d + i]) * e.w1[i * h + j];
        hidden[r * h + j] = std::max(s, 0.0);
      }
      for (int c = 0; c < o; ++c) {
        double s = e.b2[c];
        for (int j = 0; j < h; ++j) s += hidden[r * h + j] * e.w2[j * o + c];
        out[r * o + c] = s;
      }
    }
    const auto res = run_both(tensor_parallel_mlp(batch, d, h, o), mesh, mlp_inputs(e));
    expect_near(as_floats(res[0]), out, 1e-5, "out");
    expect_near(as_floats(res[1]), hidden, 1e-5, "hidden");
  }
}

TEST(TensorParallelMlp, PrintedProgram) {
  EXPECT_EQ(to_text(tensor_parallel_mlp(4, 5, 32, 4)),
            R"({ lambda ; a:f32[4,5] b:f32[5,32] c:f32[32] d:f32[32,4] e:f32[4]. let
    f:f32[4,4] g:f32[4,32] = shard_map[
      check_vma=True
      in_specs=(P(), P(None, 'model'), P('model'), P('model', None))
      jaxpr={ lambda ; h:f32[4,5] i:f32[5,4]{V:model} j:f32[4]{V:model} k:f32[4,4]{V:model}. let
          l:f32[4,5]{V:model} = pvary[axes=('model',)] h
          m:f32[4,4]{V:model} = dot_general[
            dimension_numbers=(([1], [0]), ([], []))
            preferred_element_type=float32
          ] l i
          n:f32[4,4]{V:model} = broadcast_in_dim[broadcast_dimensions=(1,)] j
          o:f32[4,4]{V:model} = add m n
          p:f32[]{V:model} = pvary[axes=('model',)] 0.0:f32[]
          q:f32[4,4]{V:model} = max o p
          r:f32[4,4]{V:model} = dot_general[
            dimension_numbers=(([1], [0]), ([], []))
            preferred_element_type=float32
          ] q k
          s:f32[4,4] = psum[axes=('model',)] r
        in (s, q) }
      mesh=Mesh('model': 8)
      out_specs=(P(), P(None, 'model'))
    ] a b c d
    t:f32[4,4] = broadcast_in_dim[broadcast_dimensions=(1,)] e
    u:f32[4,4] = add f t
  in (u, g) })");
}

}  // namespace
}  // namespace shardlab::ir
