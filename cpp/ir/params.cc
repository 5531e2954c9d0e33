#include "ir/params.h"

#include <sstream>

#include "ir/rule.h"
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

Params with_param(Params params, std::string_view name, ParamValue value) {
  for (Param& p : params)
    if (p.name == name) {
      p.value = std::move(value);
      return params;
    }
  fail(ErrorKind::kValue, "with_param: no parameter '", name, "'");
}

static_assert(std::variant_size_v<ParamValue> == static_cast<size_t>(ParamType::kPrograms) + 1,
              "one ParamType per alternative of ParamValue, in the same order");

ParamType type_of(const ParamValue& v) { return static_cast<ParamType>(v.index()); }

const char* param_type_name(ParamType t) {
  static constexpr const char* kNames[] = {"bool", "int", "float", "string", "list of ints", "list of axis names",
                                           "dtype", "list of int lists", "mesh", "list of PartitionSpecs", "program", "rule", "list of programs"};
  return kNames[static_cast<size_t>(t)];
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
