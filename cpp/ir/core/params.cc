#include "ir/core/params.h"

#include <cmath>
#include <sstream>

#include "ir/tracing/rule.h"
#include "runtime/errors.h"

namespace shardlab::ir {

template <class T>
const T& param(const Params& params, std::string_view name, const char* prim) {
  for (const auto& p : params)
    if (p.name == name) {
      if (const T* v = std::get_if<T>(&p.value)) return *v;
      fail(ErrorKind::kValue, prim, ": parameter '", name, "' has the wrong type");
    }
  fail(ErrorKind::kValue, prim, ": missing parameter '", name, "'");
}

template const bool& param<bool>(const Params&, std::string_view, const char*);
template const int64_t& param<int64_t>(const Params&, std::string_view, const char*);
template const double& param<double>(const Params&, std::string_view, const char*);
template const std::string& param<std::string>(const Params&, std::string_view, const char*);
template const std::vector<int64_t>& param<std::vector<int64_t>>(const Params&, std::string_view, const char*);
template const std::vector<std::string>& param<std::vector<std::string>>(const Params&, std::string_view, const char*);
template const DType& param<DType>(const Params&, std::string_view, const char*);
template const IntLists& param<IntLists>(const Params&, std::string_view, const char*);
template const MeshRef& param<MeshRef>(const Params&, std::string_view, const char*);
template const Specs& param<Specs>(const Params&, std::string_view, const char*);
template const ProgramRef& param<ProgramRef>(const Params&, std::string_view, const char*);
template const RuleRef& param<RuleRef>(const Params&, std::string_view, const char*);
template const Programs& param<Programs>(const Params&, std::string_view, const char*);
template const Sharding& param<Sharding>(const Params&, std::string_view, const char*);

Params with_param(Params params, std::string_view name, ParamValue value) {
  for (Param& p : params)
    if (p.name == name) {
      p.value = std::move(value);
      return params;
    }
  fail(ErrorKind::kValue, "with_param: no parameter '", name, "'");
}

static_assert(std::variant_size_v<ParamValue> == static_cast<size_t>(ParamType::kSharding) + 1,
              "one ParamType per alternative of ParamValue, in the same order");

ParamType type_of(const ParamValue& v) { return static_cast<ParamType>(v.index()); }

const char* param_type_name(ParamType t) {
  static constexpr const char* kNames[] = {"bool", "int", "float", "string", "list of ints", "list of axis names",
                                           "dtype", "list of int lists", "mesh", "list of PartitionSpecs", "program", "rule", "list of programs",
                                           "sharding"};
  return kNames[static_cast<size_t>(t)];
}

ParamValue fallback_value(const ParamSpec& spec) {
  if (spec.type == ParamType::kBool) return spec.fallback != 0;
  if (spec.type == ParamType::kInt) return spec.fallback;
  if (spec.type == ParamType::kString && spec.text_fallback) return std::string(spec.text_fallback);
  fail(ErrorKind::kValue, "parameter '", spec.name, "': a default must be an int, a bool or a string, not a ", param_type_name(spec.type));
}

void check_params(const ParamSchema& schema, const Params& params, const char* prim) {
  std::string names;
  for (const ParamSpec& s : schema) names += std::string(names.empty() ? "" : ", ") + s.name;
  for (const ParamSpec& s : schema) {
    const Param* found = nullptr;
    for (const Param& p : params) found = p.name == s.name ? &p : found;
    if (!found) fail(ErrorKind::kValue, prim, ": missing parameter '", s.name, "'");
    if (type_of(found->value) != s.type)
      fail(ErrorKind::kValue, prim, ": parameter '", s.name, "' must be a ", param_type_name(s.type), ", not a ",
           param_type_name(type_of(found->value)));
  }
  for (size_t i = 0; i < params.size(); ++i)
    if (i >= schema.size || params[i].name != schema.items[i].name)
      fail(ErrorKind::kValue, prim, ": takes the parameters (", names, ") in this order, got '", params[i].name,
           "' as parameter ", i);
}

std::string param_str(const ParamValue& v) {
  std::ostringstream out;
  std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, bool>) {
          out << (x ? "True" : "False");
        } else if constexpr (std::is_same_v<T, int64_t> || std::is_same_v<T, double>) {
          out << x;
        } else if constexpr (std::is_same_v<T, std::string>) {
          out << "'" << x << "'";
        } else if constexpr (std::is_same_v<T, DType>) {
          out << dtype_long_name(x);
        } else if constexpr (std::is_same_v<T, MeshRef>) {
          out << x->str();
        } else if constexpr (std::is_same_v<T, Specs>) {
          out << "(";
          for (size_t i = 0; i < x.size(); ++i) out << (i ? ", " : "") << x[i].str();
          out << (x.size() == 1 ? ",)" : ")");
        } else if constexpr (std::is_same_v<T, ProgramRef>) {
          out << "{...}";
        } else if constexpr (std::is_same_v<T, RuleRef>) {
          out << x->name;
        } else if constexpr (std::is_same_v<T, Programs>) {
          out << "(...)";
        } else if constexpr (std::is_same_v<T, Sharding>) {
          out << x.repr(x.dims.size());
        } else if constexpr (std::is_same_v<T, IntLists>) {
          out << "(";
          for (size_t i = 0; i < x.size(); ++i) out << (i ? ", " : "") << param_str(ParamValue(x[i]));
          out << (x.size() == 1 ? ",)" : ")");
        } else {
          out << "(";
          for (size_t i = 0; i < x.size(); ++i) {
            if (i) out << ", ";
            if constexpr (std::is_same_v<T, std::vector<std::string>>) {
              out << "'" << x[i] << "'";
            } else {
              out << x[i];
            }
          }
          out << (x.size() == 1 ? ",)" : ")");
        }
      },
      v);
  return out.str();
}

}  // namespace shardlab::ir

namespace shardlab::ir {

namespace {

// A list of ints as JAX prints one inside a named tuple: (0, 1), (0,), ().
std::string tuple_str(const std::vector<int64_t>& v) { return param_str(ParamValue(v)); }

// Lists of ints printed as fields of a NamedTuple: Name(field=(..), ...).
std::string named_tuple(const char* name, const IntLists& lists, std::initializer_list<const char*> fields) {
  std::ostringstream out;
  out << name << "(";
  size_t i = 0;
  for (const char* field : fields) {
    out << (i ? ", " : "") << field << "=" << (i < lists.size() ? tuple_str(lists[i]) : "()");
    ++i;
  }
  out << ")";
  return out.str();
}

}  // namespace

std::string param_str(const ParamValue& v, ParamFormat format) {
  switch (format) {
    case ParamFormat::kPlain:
    case ParamFormat::kImplied:  // plain where it is printed at all (the text form leaves it out)
      break;
    case ParamFormat::kName:
      if (const auto* s = std::get_if<std::string>(&v)) return *s;
      break;
    case ParamFormat::kDotDimensions:
      // (([lhs_contracting], [rhs_contracting]), ([lhs_batch], [rhs_batch])), lists printed as Python lists.
      if (const auto* d = std::get_if<IntLists>(&v); d && d->size() == 4) {
        auto list = [](const std::vector<int64_t>& l) {
          std::ostringstream o;
          o << "[";
          for (size_t i = 0; i < l.size(); ++i) o << (i ? ", " : "") << l[i];
          o << "]";
          return o.str();
        };
        return "((" + list((*d)[0]) + ", " + list((*d)[1]) + "), (" + list((*d)[2]) + ", " + list((*d)[3]) + "))";
      }
      break;
    case ParamFormat::kGatherDimensions:
      if (const auto* d = std::get_if<IntLists>(&v))
        return named_tuple("GatherDimensionNumbers", *d,
                           {"offset_dims", "collapsed_slice_dims", "start_index_map", "operand_batching_dims",
                            "start_indices_batching_dims"});
      break;
    case ParamFormat::kScatterDimensions:
      if (const auto* d = std::get_if<IntLists>(&v))
        return named_tuple("ScatterDimensionNumbers", *d,
                           {"update_window_dims", "inserted_window_dims", "scatter_dims_to_operand_dims",
                            "operand_batching_dims", "scatter_indices_batching_dims"});
      break;
    case ParamFormat::kGatherMode:
      if (const auto* m = std::get_if<std::string>(&v)) {
        if (*m == "clip") return "GatherScatterMode.CLIP";
        if (*m == "fill") return "GatherScatterMode.FILL_OR_DROP";
        if (*m == "promise_in_bounds") return "GatherScatterMode.PROMISE_IN_BOUNDS";
      }
      break;
    case ParamFormat::kFillValue:
      // NaN stands for JAX's None (the dtype's default fill, or no fill at all).
      if (const auto* f = std::get_if<double>(&v); f && std::isnan(*f)) return "None";
      break;
    case ParamFormat::kNoneIfEmpty:
      // An empty list stands for JAX's None (slice's strides left out: 1s).
      if (const auto* l = std::get_if<std::vector<int64_t>>(&v); l && l->empty()) return "None";
      break;
    case ParamFormat::kNoneGroups:
      // Python's reprs of a tuple of tuples of None: (None,) for one, () for none.
      if (const auto* l = std::get_if<std::vector<int64_t>>(&v)) {
        const auto tuple = [](const std::vector<std::string>& items) {
          std::string t = "(";
          for (size_t i = 0; i < items.size(); ++i) t += (i ? ", " : "") + items[i];
          return t + (items.size() == 1 ? ",)" : ")");
        };
        std::vector<std::string> groups;
        for (int64_t n : *l) groups.push_back(tuple(std::vector<std::string>(static_cast<size_t>(std::max<int64_t>(n, 0)), "None")));
        return tuple(groups);
      }
      break;
  }
  return param_str(v);
}

}  // namespace shardlab::ir
