// `--set a.b.c=value` overrides, applied to the YAML tree before any validation so that an overridden value is
// checked exactly like a value written in the file.
#include <algorithm>
#include <map>
#include <sstream>
#include <utility>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/scenario/scenario_parts.hpp"

namespace hulk::detail {
namespace {

/** Deepest nesting of an override value: no scenario key is nested this deep, and an alias that contains itself
 *  (`&a [*a]`) nests without end. */
constexpr int kMaxOverrideDepth = 64;

/** Thrown by without_marks past kMaxOverrideDepth, or on a map key that is a list or a map; the caller names the
 *  key. */
struct TooDeep {};
struct NonScalarKey {};

// Copies a parsed value without yaml-cpp's marks: those would point into the override string, and a line number
// from there would wrongly point into the scenario file.
YAML::Node without_marks(const YAML::Node& n, int depth = 0) {
  if (depth > kMaxOverrideDepth) throw TooDeep{};
  if (n.IsScalar()) {
    YAML::Node out(n.Scalar());
    out.SetTag(n.Tag());  // "!" for a quoted scalar: a string, never a number (YamlReader::integer)
    return out;
  }
  if (n.IsSequence()) {
    YAML::Node out(YAML::NodeType::Sequence);
    for (const auto& c : n) out.push_back(without_marks(c, depth + 1));
    return out;
  }
  if (n.IsMap()) {
    YAML::Node out(YAML::NodeType::Map);
    for (const auto& kv : n) {
      if (!kv.first.IsScalar()) throw NonScalarKey{};
      out[kv.first.Scalar()] = without_marks(kv.second, depth + 1);
    }
    return out;
  }
  return YAML::Node(YAML::NodeType::Null);
}

bool is_index(const std::string& s) {
  if (s.empty() || s.size() > 9) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

/** find_element's answer when `part` is an index of one element and the name of another. */
constexpr long kAmbiguousElement = -2;

// Position of a list element addressed by index or by its `name:`; -1 if absent, kAmbiguousElement if the index
// and a name point at different elements (jobs named "0" and "1").
long find_element(const YAML::Node& list, const std::string& part) {
  long named = -1;
  for (std::size_t i = 0; i < list.size() && named < 0; ++i) {
    const YAML::Node e = list[i];
    if (e.IsMap() && e["name"] && e["name"].IsScalar() && e["name"].Scalar() == part) named = static_cast<long>(i);
  }
  if (!is_index(part)) return named;
  const long i = std::stol(part);
  const long indexed = i < static_cast<long>(list.size()) ? i : -1;
  return named >= 0 && indexed >= 0 && named != indexed ? kAmbiguousElement : indexed >= 0 ? indexed : named;
}

/** A list element whose name has dots (`gpt3-6.7b`) split by the key's dots: when parts[i] names no element, the
 *  longest run of parts from i that, joined by dots, is an element's name becomes one part again. */
void join_dotted_name(const YAML::Node& list, std::vector<std::string>& parts, std::size_t i) {
  for (std::size_t end = parts.size(); end > i + 1; --end) {
    std::string joined = parts[i];
    for (std::size_t k = i + 1; k < end; ++k) joined += "." + parts[k];
    for (std::size_t e = 0; e < list.size(); ++e) {
      const YAML::Node el = list[e];
      if (el.IsMap() && el["name"] && el["name"].IsScalar() && el["name"].Scalar() == joined) {
        parts[i] = joined;
        parts.erase(parts.begin() + static_cast<long>(i) + 1, parts.begin() + static_cast<long>(end));
        return;
      }
    }
  }
}

std::string element_names(const YAML::Node& list) {
  std::string out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const YAML::Node e = list[i];
    std::string label = std::to_string(i);
    if (e.IsMap() && e["name"] && e["name"].IsScalar()) label += " (" + e["name"].Scalar() + ")";
    out += (i ? ", " : "") + label;
  }
  return out;
}

/** The override's value parsed as one YAML value, without marks. @throws InputError naming the key otherwise. */
YAML::Node override_value(const Override& ov, const std::string& file) {
  try {
    // Checked before yaml-cpp parses: past its own depth guard (near 500 levels) it says only "bad file".
    const YamlPrecheck pre = precheck_yaml(ov.value, kMaxOverrideDepth);
    if (pre.stuck_line > 0)  // yaml-cpp would never return (yaml_access.hpp)
      throw InputError(file, 0, ov.key, "override value '" + ov.value + "' is not valid YAML: unexpected '" +
                                            pre.stuck_token + "' where a value begins");
    if (pre.too_deep_line > 0) throw TooDeep{};
    const std::vector<YAML::Node> documents = YAML::LoadAll(ov.value);
    if (documents.size() > 1)  // `a\n---\nb` would otherwise be `a` without a word
      throw InputError(file, 0, ov.key, "override value holds " + std::to_string(documents.size()) +
                                            " YAML documents (expected one value)");
    return without_marks(documents.empty() ? YAML::Node() : documents.front());
  } catch (const YAML::Exception& e) {
    throw InputError(file, 0, ov.key, "override value '" + ov.value + "' is not valid YAML: " + e.msg);
  } catch (const TooDeep&) {
    throw InputError(file, 0, ov.key, "override value '" + ov.value + "' nests deeper than " +
                                          std::to_string(kMaxOverrideDepth) +
                                          " levels (an alias that contains itself?); expected a plain value");
  } catch (const NonScalarKey&) {
    throw InputError(file, 0, ov.key, "override value '" + ov.value +
                                          "' has a map key that is a list or a map (expected key: value)");
  }
}

/** The nodes of a document that more than one key or list entry refers to (YAML anchors and their aliases): an
 *  override through one would change every place that shares it (yaml-cpp assigns into the shared node). Each
 *  node is visited once: nodes are bucketed by their mark (an alias has its anchor's), compared by identity. */
std::vector<YAML::Node> shared_nodes(const YAML::Node& root) {
  std::map<std::pair<int, int>, std::vector<YAML::Node>> seen;  // (line, column) -> nodes there
  std::vector<YAML::Node> shared, stack{root};
  while (!stack.empty()) {
    YAML::Node n;
    n.reset(stack.back());
    stack.pop_back();
    std::vector<YAML::Node>& here = seen[{n.Mark().line, n.Mark().column}];
    bool again = false;
    for (const YAML::Node& other : here) again = again || other.is(n);
    if (again) {
      bool listed = false;
      for (const YAML::Node& other : shared) listed = listed || other.is(n);
      if (!listed) shared.push_back(n);
      continue;
    }
    here.push_back(n);
    if (n.IsSequence())
      for (const auto& c : n) stack.push_back(c);
    else if (n.IsMap())
      for (const auto& kv : n) stack.push_back(kv.second);
  }
  return shared;
}

bool is_shared(const YAML::Node& n, const std::vector<YAML::Node>& shared) {
  for (const YAML::Node& s : shared)
    if (s.is(n)) return true;
  return false;
}

/** The override key's path: its dotted parts, `wan.` and `regions.` under `platform.`. @throws InputError naming
 *  the key if it is malformed, or if it goes into job: on a scenario with jobs: (or the reverse). */
std::vector<std::string> override_path(const Override& ov, const YAML::Node& root, const std::string& file) {
  std::vector<std::string> parts;
  std::stringstream ss(ov.key);
  std::string part;
  while (std::getline(ss, part, '.')) parts.push_back(part);
  bool malformed = parts.empty() || ov.key.back() == '.';
  for (const auto& p : parts) malformed = malformed || p.empty();
  if (malformed)
    throw InputError(file, 0, ov.key, "malformed override key (expected a dotted path like job.iterations)");
  if (parts[0] == "wan" || parts[0] == "regions") parts.insert(parts.begin(), "platform");
  // job: and jobs: exclude each other: a path into the one the scenario does not have would create it, and the
  // loader would then report both sections instead of the misspelt override.
  const YAML::Node& croot = root;
  if (croot.IsMap() && parts[0] == "job" && croot["jobs"] && !croot["job"]) {
    std::string example = "jobs.0";
    for (std::size_t i = 1; i < parts.size(); ++i) example += "." + parts[i];
    const YAML::Node jobs = croot["jobs"];
    throw InputError(file, 0, ov.key,
                     "the scenario has jobs: (several jobs), not job: (expected jobs.INDEX.KEY or jobs.NAME.KEY, "
                     "e.g. " + example +
                         (jobs.IsSequence() && jobs.size() > 0 ? "; jobs: " + element_names(jobs) : "") + ")");
  }
  if (croot.IsMap() && parts[0] == "jobs" && croot["job"] && !croot["jobs"])
    throw InputError(file, 0, ov.key,
                     "the scenario has job: (one job), not jobs: (expected job.KEY, e.g. job.iterations)");
  return parts;
}

}  // namespace

std::vector<std::string> apply_overrides(YAML::Node& root, const std::vector<Override>& overrides,
                                         const std::string& file) {
  std::vector<std::string> canonical;
  for (const Override& ov : overrides) {
    std::vector<std::string> parts = override_path(ov, root, file);
    const YAML::Node value = override_value(ov, file);
    if (!root.IsMap()) throw InputError(file, 0, ov.key, "cannot override: the scenario is not a map");
    const std::vector<YAML::Node> shared = shared_nodes(root);
    // A path through an anchor's node would change its aliases too, without a word: refused, naming the place.
    const auto unshared = [&](const YAML::Node& n, const std::string& at) {
      if (n.IsDefined() && is_shared(n, shared))
        throw InputError(file, n.Mark().line + 1, ov.key,
                         "'" + at + "' is a YAML anchor's value that other keys share through aliases (*name): "
                         "overriding it would change them all (expected a path to a value written once: write "
                         "this one out without the alias)");
    };
    YAML::Node cur;
    cur.reset(root);  // reset() rebinds; operator= would overwrite the referenced node (yaml-cpp semantics)
    std::string path;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      if (cur.IsSequence() && find_element(cur, parts[i]) == -1) join_dotted_name(cur, parts, i);
      const bool last = i + 1 == parts.size();
      const std::string& p = parts[i];
      std::string here = path.empty() ? p : path + "." + p;
      if (cur.IsSequence()) {
        const long idx = find_element(cur, p);
        if (idx == kAmbiguousElement)
          throw InputError(file, 0, ov.key,
                           "'" + p + "' in '" + path + "' is both an index and the name of another element (expected "
                           "an unambiguous name or index: " + element_names(cur) + ")");
        // The loader's key paths use indices: "platform.regions.1", and "jobs[1]" and "events[1]" at the top.
        if (idx >= 0)
          here = path == "jobs" || path == "events" ? path + "[" + std::to_string(idx) + "]"
                                                    : path + "." + std::to_string(idx);
        if (idx < 0)
          throw InputError(
              file, 0, ov.key,
              "no element '" + p + "' in '" + path + "' (expected an index or a name: " + element_names(cur) + ")");
        unshared(cur[static_cast<std::size_t>(idx)], here);
        if (last) {
          cur[static_cast<std::size_t>(idx)] = value;
        } else {
          YAML::Node child = cur[static_cast<std::size_t>(idx)];
          cur.reset(child);
        }
      } else if (cur.IsMap() || cur.IsNull()) {
        const YAML::Node& ccur = cur;  // const: a lookup that creates no entry
        if (last && cur.IsMap() && is_shared(ccur[p], shared)) {
          cur.remove(p);  // a shared value replaced whole: the key gets a node of its own, the aliases keep theirs
        } else if (cur.IsMap()) {
          unshared(ccur[p], here);
        }
        if (last) {
          cur[p] = value;
        } else {
          YAML::Node child = cur[p];
          // An index into a list the scenario does not have: no element to change (a map created here read as
          // "events: expected a list, got a map", naming no override).
          static const std::vector<std::string> lists{"events", "jobs", "regions", "pairs"};  // the schema's lists
          if ((!child.IsDefined() || child.IsNull()) && is_index(parts[i + 1]) &&
              std::find(lists.begin(), lists.end(), p) != lists.end())
            throw InputError(file, 0, ov.key,
                             "'" + here + "' is not in the scenario, so it has no element " + parts[i + 1] +
                                 " (expected the whole list, e.g. --set '" + here + "=[...]')");
          // A missing section is created; whether its key is allowed is checked by the schema afterwards.
          if (!child.IsDefined() || child.IsNull()) child = YAML::Node(YAML::NodeType::Map);
          cur.reset(child);
        }
      } else {
        throw InputError(
            file, 0, ov.key,
            "cannot follow the override path: '" + path + "' is a value ('" + cur.Scalar() + "'), not a map or a list");
      }
      path = here;
    }
    canonical.push_back(path);
  }
  return canonical;
}

}  // namespace hulk::detail
