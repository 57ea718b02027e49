#include "sim/lab/sweep_columns.hpp"

#include <algorithm>
#include <optional>

#include <yaml-cpp/yaml.h>

#include "sim/core/csv_text.hpp"
#include "sim/scenario/yaml_access.hpp"

namespace hulk {
namespace {

/** Deeper values are kept as one plain column (they are not swept in practice, and the precheck bounds the parse). */
constexpr int kMaxLeafDepth = 16;

using Leaves = std::vector<std::pair<std::vector<std::string>, std::string>>;

/** Thrown below kMaxLeafDepth levels (an alias that contains itself has no bottom). */
struct TooDeep {};

/** Appends (path, scalar text) of every leaf below `node`, in document order. An empty map or list is a leaf of
 *  its own ("{}", "[]"), so that a point's value never vanishes from its row. */
void collect_leaves(const YAML::Node& node, std::vector<std::string>& path, Leaves& out) {
  if (path.size() > static_cast<std::size_t>(kMaxLeafDepth)) throw TooDeep{};
  if (node.IsMap() && node.size() > 0) {
    for (const auto& kv : node) {
      path.push_back(kv.first.IsScalar() ? kv.first.Scalar() : YAML::Dump(kv.first));
      collect_leaves(kv.second, path, out);
      path.pop_back();
    }
  } else if (node.IsSequence() && node.size() > 0) {
    for (std::size_t i = 0; i < node.size(); ++i) {
      path.push_back(std::to_string(i));
      collect_leaves(node[i], path, out);
      path.pop_back();
    }
  } else {
    out.push_back({path, node.IsMap() ? "{}" : node.IsSequence() ? "[]" : node.IsNull() ? "" : node.Scalar()});
  }
}

/** The leaves of a swept value that is a YAML map or list; nullopt for a scalar, or text that is not YAML or
 *  nests too deep (its column is then its text as given, as the scenario reads it). */
std::optional<Leaves> leaves_of_value(const std::string& text) {
  const std::string::size_type first = text.find_first_not_of(" \t");
  if (first == std::string::npos || (text[first] != '{' && text[first] != '[')) return std::nullopt;
  // yaml-cpp never returns on some texts, and recurses without bound on others: checked before it parses.
  const YamlPrecheck pre = precheck_yaml(text, kMaxLeafDepth);
  if (pre.stuck_line > 0 || pre.too_deep_line > 0) return std::nullopt;
  try {
    const YAML::Node node = YAML::Load(text);
    if ((!node.IsMap() && !node.IsSequence()) || node.size() == 0) return std::nullopt;
    Leaves out;
    std::vector<std::string> path;
    collect_leaves(node, path, out);
    return out;
  } catch (const YAML::Exception&) {
  } catch (const TooDeep&) {
  }
  return std::nullopt;
}

std::string joined(const std::string& key, const std::vector<std::string>& leaf) {
  std::string name = key;
  for (const std::string& part : leaf) name += "." + part;
  return name;
}

/** The value of each axis at a point (first axis varies slowest), as sweep_point_overrides gives them. */
std::vector<std::string> point_values(const std::vector<SweepAxis>& axes, std::size_t point) {
  std::vector<std::string> values;
  for (const Override& o : sweep_point_overrides(axes, point)) values.push_back(o.value);
  return values;
}

}  // namespace

std::vector<SweepColumn> sweep_value_columns(const std::vector<SweepAxis>& axes) {
  std::vector<SweepColumn> columns;
  for (std::size_t a = 0; a < axes.size(); ++a) {
    bool plain = false;
    std::vector<std::vector<std::string>> leaves;  // in the order the values name them
    for (const std::string& v : axes[a].values) {
      const std::optional<Leaves> value_leaves = leaves_of_value(v);
      if (!value_leaves) {
        plain = true;
        continue;
      }
      for (const auto& [leaf, text] : *value_leaves)
        if (std::find(leaves.begin(), leaves.end(), leaf) == leaves.end()) leaves.push_back(leaf);
    }
    if (plain) columns.push_back({axes[a].key, a, {}});
    for (const auto& leaf : leaves) columns.push_back({joined(axes[a].key, leaf), a, leaf});
  }
  return columns;
}

std::vector<std::string> sweep_point_fields(const std::vector<SweepAxis>& axes,
                                            const std::vector<SweepColumn>& columns, std::size_t point) {
  const std::vector<std::string> values = point_values(axes, point);
  std::vector<std::string> fields;
  for (const SweepColumn& c : columns) {
    const std::optional<Leaves> value_leaves = leaves_of_value(values.at(c.axis));
    std::string field;
    if (c.leaf.empty() && !value_leaves) field = values[c.axis];
    if (!c.leaf.empty() && value_leaves)
      for (const auto& [leaf, text] : *value_leaves)
        if (leaf == c.leaf) field = text;
    fields.push_back(field);
  }
  return fields;
}

const std::vector<std::string>& sweep_result_columns() {
  static const std::vector<std::string> columns = {
      "method",        "ok",         "iteration_time_s",   "speedup_vs_round_robin", "speedup_vs_greedy",
      "gap_to_lower_bound", "lower_bound_s", "method_wall_s", "compute_time_share", "mfu", "error"};
  return columns;
}

std::string legacy_sweep_csv_header(const std::vector<SweepAxis>& axes) {
  std::string h = "point";
  for (const auto& a : axes) h += "," + csv_field(a.key);
  return h + ",method,ok,iteration_time_s,speedup_vs_round_robin,speedup_vs_greedy,gap_to_lower_bound,"
             "lower_bound_s,method_wall_s,compute_utilisation,error";
}

std::string convert_legacy_sweep_row(const std::vector<SweepAxis>& axes, const std::vector<std::string>& fields,
                                     const std::vector<std::string>& methods) {
  const std::size_t k = axes.size();
  if (fields.size() != k + 11) return "";
  std::size_t point = 0;
  try {
    std::size_t used = 0;
    point = std::stoul(fields[0], &used);
    if (used != fields[0].size()) return "";
  } catch (const std::exception&) {
    return "";
  }
  if (point >= sweep_point_count(axes) || !std::equal(fields.begin() + 1, fields.begin() + 1 + k,
                                                      point_values(axes, point).begin()))
    return "";
  // method, ok, time, vs_rr, vs_greedy, gap_lb, lower bound, wall, compute_utilisation, error
  std::vector<std::string> result(fields.begin() + 1 + k, fields.end());
  if (std::find(methods.begin(), methods.end(), "round-robin") == methods.end()) result[3].clear();
  result.insert(result.begin() + 9, "");  // mfu: not in that layout
  std::string row = fields[0];
  for (const std::string& f : sweep_point_fields(axes, sweep_value_columns(axes), point)) row += "," + csv_field(f);
  for (const std::string& f : result) row += "," + csv_field(f);
  return row;
}

}  // namespace hulk
