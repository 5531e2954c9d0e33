// concatenate, slice, pad, dynamic_slice and dynamic_update_slice: values
// against references computed element by element from the definitions, JVPs
// against finite differences, transposes in every linear operand by the
// dot-product identity, clamped indices, the VMA of results, and every error.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <functional>

#include "exec/lockstep_program.h"
#include "ir/tracing/ops.h"
#include "ir/forms/print.h"
#include "ir_checks.h"
#include "test_util.h"

namespace shardlab::ir {
namespace {

using exec::as_floats;
using exec::as_ints;
using exec::host_f32;
using exec::host_i32;
using testing::error_message;
using testing::ravel;
using testing::unravel;

// 0, 1, 2, ... as floats: every element tells where it came from.
std::vector<float> counting(int64_t n) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>(i);
  return v;
}

Atom i32_index(int64_t i) { return Atom::constant(static_cast<double>(i), DType::kInt32); }

// concatenate

TEST(Concatenate, ValuesAlongEachDimension) {
  const Shape a = {2, 3}, b = {2, 1}, c = {2, 0};
  const auto x = counting(6), y = std::vector<float>{100, 200};
  const auto z = as_floats(evaluate(
      [](Builder& bb, auto in) {
        return concatenate(bb, {in[0], in[1], in[2]}, 1);
      },
      {host_f32(a, x), host_f32(b, y), host_f32(c, {})}));
  ASSERT_EQ(z.size(), 8u);
  for (int64_t k = 0; k < 8; ++k) {
    const auto idx = unravel(k, {2, 4});
    EXPECT_EQ(z[k], idx[1] < 3 ? x[ravel(idx, a)] : y[idx[0]]) << k;
  }
  const auto rows = as_ints(evaluate(
      [](Builder& bb, auto in) {
        return concatenate(bb, {in[1], in[0]}, 0);
      },
      {host_i32({1, 2}, {1, 2}), host_i32({2, 2}, {3, 4, 5, 6})}));
  EXPECT_EQ(rows, (std::vector<int32_t>{3, 4, 5, 6, 1, 2}));
}

TEST(Concatenate, JvpAndTransposeInEachOperand) {
  const std::vector<Aval> avals = {f32({2, 3}), f32({2, 1}), f32({2, 2})};
  const Body f = [](Builder& b, auto in) { return concatenate(b, {in[0], in[1], in[2]}, 1); };
  check_jvp([&](Builder& b, auto in) { return mul(b, f(b, in), f(b, in)); }, avals);
  for (size_t lin = 0; lin < 3; ++lin) check_transpose(f, avals, lin);
  // A constant operand: its tangent is instantiated as zeros.
  check_jvp([](Builder& b, auto in) { return concatenate(b, {zeros_like(b, f32({3})), in[0]}, 0); }, {f32({2})});
}

TEST(Concatenate, VmaAndErrors) {
  Builder b;
  const Atom x = b.input(Aval{DType::kFloat32, {2, 3}, {"data"}}),
             y = b.input(Aval{DType::kFloat32, {2, 1}, {"model"}});
  EXPECT_EQ(concatenate(b, {x, y}, 1).aval.str(), "f32[2,4]{V:(data,model)}");
  const Atom w = b.input(f32({3, 3})), i = b.input(Aval{DType::kInt32, {2, 3}, {}});
  EXPECT_EQ(error_message([&] { concatenate(b, {}, 0); }), "concatenate: takes at least 1 operand, got 0");
  EXPECT_EQ(error_message([&] {
              concatenate(b, {x, y}, 2);
            }),
            "concatenate: dimension 2 is out of range for f32[2,3]{V:data} of rank 2");
  EXPECT_EQ(error_message([&] {
              concatenate(b, {x, w}, 1);
            }),
            "concatenate: operands f32[2,3]{V:data} and f32[3,3] must have equal dtypes and equal shapes except "
            "along dimension 1");
  EXPECT_EQ(error_message([&] {
              concatenate(b, {x, i}, 0);
            }),
            "concatenate: operands f32[2,3]{V:data} and i32[2,3] must have equal dtypes and equal shapes except "
            "along dimension 0");
}

// slice

// x[start:limit:strides] by the definition, for x = counting().
std::vector<float> slice_reference(const Shape& shape, const std::vector<int64_t>& start,
                                   const std::vector<int64_t>& limit, const std::vector<int64_t>& strides) {
  std::vector<float> out;
  for (int64_t k = 0; k < num_elements(shape); ++k) {
    const auto idx = unravel(k, shape);
    bool taken = true;
    for (size_t d = 0; d < shape.size(); ++d)
      taken = taken && idx[d] >= start[d] && idx[d] < limit[d] && (idx[d] - start[d]) % strides[d] == 0;
    if (taken) out.push_back(static_cast<float>(k));  // row-major order is kept
  }
  return out;
}

TEST(Slice, ValuesWithAndWithoutStrides) {
  const Shape s = {4, 5, 3};
  struct SliceCase {
    std::vector<int64_t> start, limit, strides;
  };
  for (const SliceCase& c : std::vector<SliceCase>{{{1, 0, 0}, {3, 5, 3}, {}},
                                                   {{0, 1, 1}, {4, 5, 3}, {2, 3, 1}},
                                                   {{3, 2, 0}, {4, 5, 3}, {1, 2, 2}},
                                                   {{2, 2, 1}, {2, 4, 3}, {}}}) {
    const auto got =
        as_floats(evaluate([&](Builder& b, auto in) { return slice(b, in[0], c.start, c.limit, c.strides); },
                           {host_f32(s, counting(60))}));
    EXPECT_EQ(got, slice_reference(s, c.start, c.limit, c.strides.empty() ? std::vector<int64_t>(3, 1) : c.strides))
        << shape_str(c.start) << shape_str(c.limit) << shape_str(c.strides);
  }
}

TEST(Slice, JvpAndTransposeIsAPad) {
  check_jvp([](Builder& b, auto in) { return slice(b, mul(b, in[0], in[0]), {1, 0}, {4, 3}, {2, 2}); }, {f32({5, 4})});
  check_transpose([](Builder& b, auto in) { return slice(b, in[0], {1, 0}, {3, 4}); }, f32({4, 4}));
  check_transpose([](Builder& b, auto in) { return slice(b, in[0], {1, 0}, {5, 3}, {3, 2}); }, f32({6, 4}));
  check_transpose([](Builder& b, auto in) { return slice(b, in[0], {2}, {2}, {2}); }, f32({5}));
  Builder b;
  const Atom ct = b.input(f32({2, 2}));
  const auto cts = primitive(Prim::kSlice)
                       .transpose(b,
                                  {{"start_indices", std::vector<int64_t>{1, 0}},
                                   {"limit_indices", std::vector<int64_t>{5, 3}},
                                   {"strides", std::vector<int64_t>{3, 2}}},
                                  {ct}, {Atom{-1, 0.0, f32({6, 4})}}, {true});
  EXPECT_EQ(to_text(b.build({*cts[0]})),
            "{ lambda ; a:f32[2,2]. let\n"
            "    b:f32[6,4] = pad[padding_config=((1, 1, 2), (0, 1, 1))] a 0.0:f32[]\n"
            "  in (b,) }");
}

TEST(Slice, PrintAndErrors) {
  Builder b;
  const Atom x = b.input(Aval{DType::kFloat32, {3, 4}, {"data"}});
  const Atom z = slice(b, x, {1, 0}, {3, 4}, {1, 2});
  EXPECT_EQ(to_text(b.build({z})),
            "{ lambda ; a:f32[3,4]{V:data}. let\n"
            "    b:f32[2,2]{V:data} = slice[\n"
            "      limit_indices=(3, 4)\n"
            "      start_indices=(1, 0)\n"
            "      strides=(1, 2)\n"
            "    ] a\n"
            "  in (b,) }");
  EXPECT_EQ(error_message([&] {
              slice(b, x, {0}, {2, 2});
            }),
            "slice: start_indices [0] and limit_indices [2,2] must have one entry per dimension of f32[3,4]{V:data}");
  EXPECT_EQ(error_message([&] {
              slice(b, x, {0, 0}, {2, 2}, {1});
            }),
            "slice: strides [1] must be empty or have one entry per dimension of f32[3,4]{V:data}");
  EXPECT_EQ(error_message([&] {
              slice(b, x, {0, 0}, {2, 2}, {1, 0});
            }),
            "slice: strides [1,0] for f32[3,4]{V:data} must be positive");
  EXPECT_EQ(error_message([&] {
              slice(b, x, {0, 1}, {2, 5});
            }),
            "slice: dimension 1 of f32[3,4]{V:data} has size 4; start 1 and limit 5 must satisfy 0 <= start <= limit "
            "<= 4");
  EXPECT_EQ(error_message([&] {
              slice(b, x, {2, 0}, {1, 4});
            }),
            "slice: dimension 0 of f32[3,4]{V:data} has size 3; start 2 and limit 1 must satisfy 0 <= start <= limit "
            "<= 3");
}

// pad

// pad by the definition: output element o along each dimension is operand
// element (o - lo) / (interior + 1) when that divides exactly and is in range.
std::vector<float> pad_reference(const std::vector<float>& x, const Shape& shape, float value, const IntLists& config) {
  Shape out_shape;
  for (size_t d = 0; d < shape.size(); ++d)
    out_shape.push_back(config[d][0] + config[d][1] + shape[d] + std::max<int64_t>(shape[d] - 1, 0) * config[d][2]);
  std::vector<float> out(num_elements(out_shape), value);
  for (int64_t k = 0; k < num_elements(out_shape); ++k) {
    const auto o = unravel(k, out_shape);
    std::vector<int64_t> i(shape.size());
    bool inside = true;
    for (size_t d = 0; d < shape.size(); ++d) {
      const int64_t p = o[d] - config[d][0], step = config[d][2] + 1;
      inside = inside && p >= 0 && p % step == 0 && p / step < shape[d];
      i[d] = p / step;
    }
    if (inside) out[k] = x[ravel(i, shape)];
  }
  return out;
}

TEST(Pad, ValuesWithInteriorAndNegativePadding) {
  const Shape s = {3, 4};
  const auto x = counting(12);
  for (const IntLists& config : std::vector<IntLists>{{{1, 2, 0}, {0, 0, 0}},
                                                      {{0, 0, 1}, {2, 1, 2}},
                                                      {{-1, 1, 1}, {-2, -3, 1}},
                                                      {{-5, 0, 2}, {1, -1, 0}},
                                                      {{0, -3, 0}, {0, 0, 0}}}) {
    const auto got = as_floats(evaluate([&](Builder& b, auto in) { return pad(b, in[0], in[1], config); },
                                        {host_f32(s, x), host_f32({}, {-1})}));
    EXPECT_EQ(got, pad_reference(x, s, -1, config)) << to_text([&] {
      Builder b;
      return b.build({pad(b, b.input(f32(s)), f32_scalar(-1), config)});
    }());
  }
  const auto ints = as_ints(evaluate(
      [](Builder& b, auto in) {
        return pad(b, in[0], Atom::constant(9, DType::kInt32), {{1, 0, 1}});
      },
      {host_i32({2}, {4, 5})}));
  EXPECT_EQ(ints, (std::vector<int32_t>{9, 4, 9, 5}));
}

TEST(Pad, JvpAndTransposeInTheOperandAndThePaddingValue) {
  const IntLists config = {{-1, 2, 1}, {1, -1, 0}};
  const Body f = [&](Builder& b, auto in) { return pad(b, in[0], in[1], config); };
  check_jvp([&](Builder& b, auto in) { return mul(b, f(b, in), f(b, in)); }, {f32({3, 4}), f32({})});
  check_jvp([&](Builder& b, auto in) { return pad(b, in[0], f32_scalar(2.0), config); }, {f32({3, 4})});
  check_jvp([&](Builder& b, auto in) { return pad(b, zeros_like(b, f32({3, 4})), in[0], config); }, {f32({})});
  for (const IntLists& c : std::vector<IntLists>{config, {{2, 0, 0}, {0, 0, 3}}, {{-2, -1, 2}, {0, 1, 0}}})
    for (size_t lin = 0; lin < 2; ++lin) {
      SCOPED_TRACE(lin);
      check_transpose([&](Builder& b, auto in) { return pad(b, in[0], in[1], c); }, {f32({3, 4}), f32({})}, lin);
    }
}

TEST(Pad, Errors) {
  Builder b;
  const Atom x = b.input(f32({3})), v = b.input(f32({})), i = b.input(Aval{DType::kInt32, {}, {}});
  const Params p = {{"padding_config", IntLists{{0, 0, 0}}}};
  EXPECT_EQ(error_message([&] { b.emit1(Prim::kPad, p, {x}); }),
            "pad: takes 2 operands (the operand and the padding value), got 1");
  EXPECT_EQ(error_message([&] {
              pad(b, x, x, {{0, 0, 0}});
            }),
            "pad: the padding value f32[3] must be a scalar of the operand's dtype (f32[3])");
  EXPECT_EQ(error_message([&] {
              pad(b, x, i, {{0, 0, 0}});
            }),
            "pad: the padding value i32[] must be a scalar of the operand's dtype (f32[3])");
  EXPECT_EQ(error_message([&] { pad(b, x, v, {}); }),
            "pad: padding_config has 0 entries but the operand f32[3] has rank 1");
  EXPECT_EQ(error_message([&] {
              pad(b, x, v, {{1, 2}});
            }),
            "pad: padding_config entry 0 is [1,2] for f32[3]; each entry must be [lo,hi,interior]");
  EXPECT_EQ(error_message([&] {
              pad(b, x, v, {{0, 0, -1}});
            }),
            "pad: interior padding -1 of dimension 0 of f32[3] must be non-negative");
  EXPECT_EQ(error_message([&] {
              pad(b, x, v, {{-4, -1, 0}});
            }),
            "pad: dimension 0 of f32[3] would have size -2 after padding [-4,-1,0]; it must be at least 0");
  const Atom vx = b.input(Aval{DType::kFloat32, {3}, {"data"}}), vv = b.input(Aval{DType::kFloat32, {}, {"model"}});
  EXPECT_EQ(pad(b, vx, vv, {{1, 1, 0}}).aval.str(), "f32[5]{V:(data,model)}");
}

// dynamic_slice and dynamic_update_slice

TEST(DynamicSlice, ValuesWithIndicesClampedIntoRange) {
  const Shape s = {4, 5};
  struct DsCase {
    int32_t i, j, want_i, want_j;  // the indices and where the 2x3 window starts after clamping
  };
  for (const DsCase& c : std::vector<DsCase>{{1, 1, 1, 1}, {0, 2, 0, 2}, {3, 4, 2, 2}, {-1, 7, 0, 2}, {2, -5, 2, 0}}) {
    const auto got = as_floats(evaluate(
        [](Builder& b, auto in) {
          return dynamic_slice(b, in[0], {in[1], in[2]}, {2, 3});
        },
        {host_f32(s, counting(20)), host_i32({}, {c.i}), host_i32({}, {c.j})}));
    std::vector<float> want;
    for (int64_t r = 0; r < 2; ++r)
      for (int64_t col = 0; col < 3; ++col) want.push_back(static_cast<float>((c.want_i + r) * 5 + c.want_j + col));
    EXPECT_EQ(got, want) << c.i << " " << c.j;
  }
}

TEST(DynamicSlice, JvpTransposeAndNotLinearInIndices) {
  const Body f = [](Builder& b, auto in) { return dynamic_slice(b, in[0], {i32_index(1), i32_index(-3)}, {2, 2}); };
  check_jvp([&](Builder& b, auto in) { return mul(b, f(b, in), f(b, in)); }, {f32({4, 3})});
  check_transpose(f, f32({4, 3}));
  check_transpose([](Builder& b, auto in) { return dynamic_slice(b, in[0], {i32_index(9)}, {3}); }, f32({5}));
  Builder b;
  const Atom x = b.input(f32({4})), i = b.input(Aval{DType::kInt32, {}, {}});
  const Atom z = dynamic_slice(b, x, {i}, {2});
  EXPECT_EQ(error_message([&] {
              primitive(Prim::kDynamicSlice).transpose(b, {{"slice_sizes", Shape{2}}}, {z}, {x, i}, {true, true});
            }),
            "dynamic_slice: the program is not linear in its operand i32[]; cannot transpose");
}

TEST(DynamicSlice, PrintVmaAndErrors) {
  Builder b;
  const Atom x = b.input(Aval{DType::kFloat32, {4, 3}, {"data"}}), i = b.input(Aval{DType::kInt32, {}, {"model"}});
  const Atom z = dynamic_slice(b, x, {i, i32_index(0)}, {2, 3});
  EXPECT_EQ(to_text(b.build({z})),
            "{ lambda ; a:f32[4,3]{V:data} b:i32[]{V:model}. let\n"
            "    c:f32[2,3]{V:(data,model)} = dynamic_slice[slice_sizes=(2, 3)] a b 0:i32[]\n"
            "  in (c,) }");
  const Atom f = b.input(f32({}));
  EXPECT_EQ(error_message([&] {
              b.emit1(Prim::kDynamicSlice, {{"slice_sizes", Shape{}}}, {});
            }),
            "dynamic_slice: takes the operand and one index per dimension, got no operands");
  EXPECT_EQ(error_message([&] {
              dynamic_slice(b, x, {i}, {2, 3});
            }),
            "dynamic_slice: f32[4,3]{V:data} needs 2 indices (one per dimension), got 1");
  EXPECT_EQ(error_message([&] {
              dynamic_slice(b, x, {i, f}, {2, 3});
            }),
            "dynamic_slice: index 1 is f32[]; indices must be int32 scalars");
  EXPECT_EQ(error_message([&] {
              dynamic_slice(b, x, {i, i}, {2});
            }),
            "dynamic_slice: slice_sizes [2] must have one entry per dimension of f32[4,3]{V:data}");
  EXPECT_EQ(error_message([&] {
              dynamic_slice(b, x, {i, i}, {5, 1});
            }),
            "dynamic_slice: slice size 5 of dimension 0 must be in 0..4 for f32[4,3]{V:data}");
}

TEST(DynamicUpdateSlice, ValuesWithIndicesClampedIntoRange) {
  const Shape s = {3, 4};
  for (const auto& [i, j, want_i, want_j] :
       std::vector<std::array<int32_t, 4>>{{0, 0, 0, 0}, {1, 2, 1, 2}, {2, 3, 1, 2}, {-4, 1, 0, 1}}) {
    const auto got = as_floats(evaluate(
        [](Builder& b, auto in) {
          return dynamic_update_slice(b, in[0], in[1], {in[2], in[3]});
        },
        {host_f32(s, counting(12)), host_f32({2, 2}, {-1, -2, -3, -4}), host_i32({}, {i}), host_i32({}, {j})}));
    for (int64_t k = 0; k < 12; ++k) {
      const auto idx = unravel(k, s);
      const int64_t r = idx[0] - want_i, c = idx[1] - want_j;
      const bool in_window = r >= 0 && r < 2 && c >= 0 && c < 2;
      EXPECT_EQ(got[k], in_window ? static_cast<float>(-1 - (r * 2 + c)) : static_cast<float>(k))
          << i << " " << j << " element " << k;
    }
  }
  const auto ints =
      as_ints(evaluate([](Builder& b, auto in) { return dynamic_update_slice(b, in[0], in[1], {i32_index(1)}); },
                       {host_i32({3}, {1, 2, 3}), host_i32({1}, {7})}));
  EXPECT_EQ(ints, (std::vector<int32_t>{1, 7, 3}));
}

TEST(DynamicUpdateSlice, JvpAndTransposeInTheOperandAndTheUpdate) {
  const Body f = [](Builder& b, auto in) {
    return dynamic_update_slice(b, in[0], in[1], {i32_index(2), i32_index(-1)});
  };
  const std::vector<Aval> avals = {f32({4, 3}), f32({3, 2})};
  check_jvp([&](Builder& b, auto in) { return mul(b, f(b, in), f(b, in)); }, avals);
  check_jvp([&](Builder& b, auto in) { return f(b, {in[0], zeros_like(b, f32({3, 2}))}); }, {f32({4, 3})});
  check_jvp([&](Builder& b, auto in) { return f(b, {zeros_like(b, f32({4, 3})), in[0]}); }, {f32({3, 2})});
  for (size_t lin = 0; lin < 2; ++lin) check_transpose(f, avals, lin);
  Builder b;
  const Atom x = b.input(f32({4})), u = b.input(f32({2})), i = b.input(Aval{DType::kInt32, {}, {}});
  const Atom z = dynamic_update_slice(b, x, u, {i});
  EXPECT_EQ(error_message([&] {
              primitive(Prim::kDynamicUpdateSlice).transpose(b, {}, {z}, {x, u, i}, {true, false, true});
            }),
            "dynamic_update_slice: the program is not linear in its operand i32[]; cannot transpose");
}

TEST(DynamicUpdateSlice, VmaAndErrors) {
  Builder b;
  const Atom x = b.input(Aval{DType::kFloat32, {4, 3}, {"data"}}),
             u = b.input(Aval{DType::kFloat32, {2, 3}, {"model"}});
  const Atom i = b.input(Aval{DType::kInt32, {}, {}});
  EXPECT_EQ(dynamic_update_slice(b, x, u, {i, i}).aval.str(), "f32[4,3]{V:(data,model)}");
  const Atom big = b.input(f32({5, 1})), iu = b.input(Aval{DType::kInt32, {2, 3}, {}});
  EXPECT_EQ(error_message([&] { b.emit1(Prim::kDynamicUpdateSlice, {}, {x}); }),
            "dynamic_update_slice: takes the operand, the update and one index per dimension, got 1 operands");
  EXPECT_EQ(error_message([&] {
              dynamic_update_slice(b, x, big, {i, i});
            }),
            "dynamic_update_slice: the update f32[5,1] does not fit in the operand f32[4,3]{V:data}; it needs the "
            "same dtype and rank and no larger dimensions");
  EXPECT_EQ(error_message([&] {
              dynamic_update_slice(b, x, iu, {i, i});
            }),
            "dynamic_update_slice: the update i32[2,3] does not fit in the operand f32[4,3]{V:data}; it needs the "
            "same dtype and rank and no larger dimensions");
  EXPECT_EQ(error_message([&] {
              dynamic_update_slice(b, x, u, {i, i, i});
            }),
            "dynamic_update_slice: f32[4,3]{V:data} needs 2 indices (one per dimension), got 3");
  EXPECT_EQ(error_message([&] {
              dynamic_update_slice(b, x, u, {i, iu});
            }),
            "dynamic_update_slice: index 1 is i32[2,3]; indices must be int32 scalars");
}

}  // namespace
}  // namespace shardlab::ir
