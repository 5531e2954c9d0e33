// Checks shared by the program-layer tests: evaluate a traced body, check a
// transpose rule by the dot-product identity, and check the JVP pass against
// central finite differences.
#pragma once

#include <functional>
#include <random>
#include <vector>

#include "exec/lockstep_program.h"
#include "host_arrays.h"
#include "ir/tracing/builder.h"
#include "runtime/partition_spec.h"

namespace shardlab::ir {

/// A float32 aval of `s`.
Aval f32(Shape s);

/// Whether a primitive's sample runs inside a shard_map body (a collective,
/// pvary, or an operand varying along a mesh axis).
bool in_body(Prim prim, const Sample& s);

/// A program applying `prim` to its sample's operands (of their avals, weak
/// types too): at the top level, or in a shard_map over ('i': 8) whose blocks
/// are the sample's operands (split along 'i' on their first dimension where
/// they vary along it).
Program sample_program(Prim prim, const Sample& s);

/// A traced function body: builds its output from its input atoms.
using Body = std::function<Atom(Builder&, const std::vector<Atom>&)>;

/// f evaluated on host values of the given avals.
std::vector<float> evaluate(const Body& f, const std::vector<Aval>& avals, const std::vector<std::vector<float>>& xs);

/// f evaluated on host arrays (f's inputs have their avals).
exec::HostArray evaluate(const Body& f, const std::vector<exec::HostArray>& args);

/// For f linear in its input t = inputs[linear_input] (the other inputs fixed
/// at seeded random values, so f may be affine in t), where t is an operand (or
/// several) of f's last equation: <ct, f(t) - f(0)> = <f^T(ct), t> for that
/// equation's transpose rule.
void check_transpose(const Body& f, const std::vector<Aval>& avals, size_t linear_input);
/// check_transpose of a function of one input.
void check_transpose(const Body& f, const Aval& in);

/// The JVP pass's tangent output against central finite differences of f, at
/// seeded random points (`positive`: inputs in [0.5, 1.5) for log and sqrt).
void check_jvp(const Body& f, const std::vector<Aval>& avals, bool positive = false);

/// Runs `p` with both executors on `inputs` over `mesh` (inputs placed on the
/// devices by `specs`, default P()): the threaded executor's outputs must
/// equal the lockstep executor's bitwise. Returns the outputs.
std::vector<exec::HostArray> run_both(const Program& p, const std::shared_ptr<const Mesh>& mesh,
                                      const std::vector<exec::HostArray>& inputs,
                                      const std::vector<PartitionSpec>& specs = {});

/// For p linear in its one input: <ct, p(t)> = <vjp(p)(ct), t> at random t and ct.
void check_linear_vjp(const Program& p);

/// Random elements for `aval`: floats in [-2, 2), int32 in [-1, 6] (indices
/// in and out of range), bools.
exec::HostArray random_array(const Aval& aval, std::mt19937& rng);

/// Equal elements; float32 ones within 2 ulps (a vectorized kernel rounds the
/// elements of a longer array the same to an ulp or so: Eigen's pow and sqrt
/// take other paths for the packet and the tail), NaNs of any sign equal.
bool same_value(DType dtype, uint32_t a, uint32_t b);

}  // namespace shardlab::ir
