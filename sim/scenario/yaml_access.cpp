#include "sim/scenario/yaml_access.hpp"

#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>

#include "sim/core/input_file.hpp"
#include "sim/core/did_you_mean.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/units.hpp"
#include "sim/core/utf8.hpp"

namespace hulk {
namespace {

/** Thrown by YamlEventPass at the first list or map past its limit, with that node's 1-based line. */
struct NestedTooDeep {
  int line;
};

/** Follows yaml-cpp's parse events, counts how deep lists and maps are open and keeps where the last document
 *  began; nothing is built. */
class YamlEventPass : public YAML::EventHandler {
 public:
  explicit YamlEventPass(int max_levels) : max_levels_(max_levels) {}
  void OnDocumentStart(const YAML::Mark& m) override { document_start = m; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    open(m);
  }
  void OnSequenceEnd() override { --depth_; }
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    open(m);
  }
  void OnMapEnd() override { --depth_; }

  YAML::Mark document_start = YAML::Mark::null_mark();  ///< where the last document's first token is

 private:
  void open(const YAML::Mark& m) {
    if (++depth_ > max_levels_) throw NestedTooDeep{m.is_null() ? 0 : m.line + 1};
  }
  int max_levels_;
  int depth_ = 0;
};

/** The character at a 0-based line and column of `text`, as the error names it ('?' if out of range). */
char char_at(const std::string& text, int line, int column) {
  std::size_t at = 0;
  for (int l = 0; l < line && at != std::string::npos; ++l) {
    at = text.find('\n', at);
    if (at != std::string::npos) ++at;
  }
  if (at == std::string::npos || at + column >= text.size()) return '?';
  return text[at + column];
}

}  // namespace

YamlPrecheck precheck_yaml(const std::string& text, int max_levels) {
  // A separate pass over the events: yaml-cpp's own depth guard (near 500 levels) throws a bare "bad file", its
  // parser gives no hook into node building, and a token its document parser does not consume makes every later
  // call start the same empty document again, so LoadAll never returns (a yaml-cpp bug, report 1040 upstream, fixed after 0.7).
  std::istringstream in(text);
  YAML::Parser parser(in);
  YamlEventPass events(max_levels);
  YamlPrecheck found;
  try {
    int previous_start = -1;
    while (parser.HandleNextDocument(events)) {
      const YAML::Mark& start = events.document_start;
      if (!start.is_null() && start.pos == previous_start) {  // no progress: the parser is stuck on this token
        found.stuck_line = start.line + 1;
        found.stuck_token = char_at(text, start.line, start.column);
        return found;
      }
      previous_start = start.is_null() ? -1 : start.pos;
    }
  } catch (const NestedTooDeep& deep) {
    found.too_deep_line = deep.line > 0 ? deep.line : 1;
  } catch (const YAML::Exception&) {
    // malformed before either: the real parse names the problem
  }
  return found;
}

YAML::Node YamlReader::load_file(const std::string& path) {
  std::ifstream in = open_input_file(path, "file", "a readable YAML file", std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // YAML text has no NUL byte; yaml-cpp reads one as an escape on the next line: name the line it is on.
  if (const std::size_t nul = text.find('\0'); nul != std::string::npos)
    throw InputError(path, 1 + static_cast<int>(std::count(text.begin(), text.begin() + nul, '\n')), "",
                     "contains a NUL byte (a binary file?); expected YAML text");
  if (const std::size_t bad = first_invalid_utf8(text); bad != std::string::npos) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(text[bad]));
    throw InputError(path, 1 + static_cast<int>(std::count(text.begin(), text.begin() + bad, '\n')), "",
                     std::string("byte ") + hex + " is not UTF-8 (expected YAML text in UTF-8)");
  }
  const YamlPrecheck pre = precheck_yaml(text, kMaxYamlNesting);
  if (pre.stuck_line > 0)
    throw InputError(path, pre.stuck_line, "",
                     std::string("malformed YAML: unexpected '") + pre.stuck_token +
                         "' where a document begins (expected a key, a value, '[' or '{')");
  if (const int line = pre.too_deep_line; line > 0)
    throw InputError(path, line, "",
                     "lists and maps nested too deeply (expected at most " + std::to_string(kMaxYamlNesting) +
                         " levels; hulk's inputs need fewer than ten)");
  try {
    // One document: a second one (after `---`) would otherwise be dropped without a word.
    std::vector<YAML::Node> documents = YAML::LoadAll(text);
    if (documents.size() > 1)
      throw InputError(path, line_of(documents[1]), "",
                       "holds " + std::to_string(documents.size()) + " YAML documents (expected one scenario)");
    return documents.empty() ? YAML::Node() : documents.front();
  } catch (const YAML::Exception& e) {
    // e.msg is yaml-cpp's bare message; e.mark its 0-based position.
    throw InputError(path, e.mark.is_null() ? 0 : e.mark.line + 1, "", "malformed YAML: " + e.msg);
  }
}

int YamlReader::line_of(const YAML::Node& node) {
  if (!node.IsDefined()) return 0;
  const YAML::Mark m = node.Mark();
  return m.is_null() ? 0 : m.line + 1;
}

std::string YamlReader::join(const std::string& parent, const std::string& child) {
  return parent.empty() ? child : parent + "." + child;
}

std::string YamlReader::override_of(const std::string& key) const {
  for (const auto& [path, label] : overrides_)
    if (key == path || key.rfind(path + ".", 0) == 0 || key.rfind(path + "[", 0) == 0) return label;  // events[2]
  return "";
}

std::string YamlReader::override_within(const std::string& key) const {
  for (const auto& [path, label] : overrides_)
    if (path == key || path.rfind(key + ".", 0) == 0) return label;
  return "";
}

InputError YamlReader::error_at(const YAML::Node& at, const std::string& key, const std::string& message) const {
  const std::string label = override_of(key);
  if (!label.empty()) return InputError(file_, 0, key, message + " (value from " + label + ")");
  int line = line_of(at);
  if (line == 0) line = line_for(key);
  return InputError(file_, line, key, message);
}

void YamlReader::fail(const YAML::Node& at, const std::string& key, const std::string& message) const {
  throw error_at(at, key, message);
}

void YamlReader::soft_fail(const YAML::Node& at, const std::string& key, const std::string& message) const {
  if (!collecting_) fail(at, key, message);
  errors_.push_back(error_at(at, key, message));
}

void YamlReader::throw_collected() const {
  if (errors_.empty()) return;
  std::string all;
  std::vector<std::string> seen;  // the same problem reached twice (e.g. a shared node) is listed once
  for (const InputError& e : errors_) {
    const std::string line = e.what();
    if (std::find(seen.begin(), seen.end(), line) != seen.end()) continue;
    seen.push_back(line);
    all += (all.empty() ? "" : "\n") + line;
  }
  const InputError& first = errors_.front();
  throw InputError(InputError::Preformatted{}, first.file(), first.line(), first.key(), all);
}

void YamlReader::fail_key(const std::string& key, const std::string& message) const {
  const std::string label = override_of(key);
  if (!label.empty()) throw InputError(file_, 0, key, message + " (value from " + label + ")");
  throw InputError(file_, line_for(key), key, message);
}

int YamlReader::line_for(const std::string& key) const {
  // Fall back to the closest recorded ancestor: "job.parallelism.tp" absent -> "job.parallelism" -> "job".
  std::string k = key;
  while (!k.empty()) {
    auto it = lines_.find(k);
    if (it != lines_.end() && it->second > 0) return it->second;
    const auto dot = k.rfind('.');
    if (dot == std::string::npos) break;
    k.resize(dot);
  }
  return 0;
}

void YamlReader::record(const std::string& key, const YAML::Node& node) const {
  const int line = line_of(node);
  if (line > 0) lines_[key] = line;
}

std::string describe_node(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "nothing";
  if (node.IsSequence()) return "a list";
  if (node.IsMap()) return "a map";
  return "'" + node.Scalar() + "'";
}

void YamlReader::expect_map(const YAML::Node& node, const std::string& key) const {
  record(key, node);
  if (!node.IsMap()) fail(node, key, "expected a map of keys, got " + describe_node(node));
}

void YamlReader::expect_list(const YAML::Node& node, const std::string& key) const {
  record(key, node);
  if (!node.IsSequence()) fail(node, key, "expected a list, got " + describe_node(node));
}

void YamlReader::check_keys(const YAML::Node& map, const std::string& key,
                            const std::vector<std::string>& allowed) const {
  expect_map(map, key);
  std::map<std::string, int> seen;  // yaml-cpp keeps duplicate keys and lookups see only the first: reject them
  for (const auto& kv : map) {
    if (!kv.first.IsScalar()) fail(kv.first, key, "map keys must be plain words, got " + describe_node(kv.first));
    const std::string name = kv.first.Scalar();
    const std::string path = join(key, name);
    // yaml-cpp reads a merge key as an ordinary key named "<<": the merged keys would be missing. Stop this map
    // here, so that its missing keys do not follow as knock-on errors.
    if (name == "<<")
      fail(kv.first, path, "YAML merge keys ('<<: *anchor') are not supported (expected the keys written out)");
    if (seen.count(name) != 0) {
      soft_fail(kv.first, path,
           "duplicate key '" + name + "'" +
               (seen[name] > 0 ? " (first at line " + std::to_string(seen[name]) + ")" : ""));
      continue;  // the first occurrence is the one read (and recorded)
    }
    seen[name] = line_of(kv.first);
    bool ok = false;
    for (const auto& a : allowed) ok = ok || a == name;
    // An unknown key is never read, so the rest of the map can still be checked (collecting mode).
    if (!ok) {
      const std::string message = "unknown key '" + name + "'" + suggestion_suffix(name, allowed);
      // A key that only an override brought in (--set job.paralelism.dp=2) is that override's mistake, not the file's.
      std::string label;
      for (const auto& [over, text] : overrides_)
        if (label.empty() && (over == path || over.rfind(path + ".", 0) == 0)) label = text;
      if (label.empty()) soft_fail(kv.first, path, message);
      else if (!collecting_) throw InputError(file_, 0, path, message + " (from " + label + ")");
      else errors_.push_back(InputError(file_, 0, path, message + " (from " + label + ")"));
    }
    // The value's mark is where a problem with it shows; the key's mark is the fallback (null values).
    record(path, kv.second.IsNull() ? kv.first : kv.second);
  }
}

YAML::Node YamlReader::require(const YAML::Node& map, const std::string& key, const std::string& name) const {
  const YAML::Node& cmap = map;
  YAML::Node child = cmap[name];
  if (child.IsDefined()) return child;
  // A key already reported unknown, with this name as its closest ("gpu": did you mean 'gpus'?), is the cause:
  // its "missing key" would be a knock-on error. That report again instead (throw_collected lists it once).
  if (map.IsMap())
    for (const auto& kv : map) {
      if (!kv.first.IsScalar() || closest_name(kv.first.Scalar(), {name}) != name) continue;
      const std::string typo = join(key, kv.first.Scalar());
      for (const InputError& e : errors_)
        if (e.key() == typo) throw InputError(e);
    }
  fail(map, join(key, name), "missing key '" + name + "'");
}

std::string YamlReader::scalar(const YAML::Node& node, const std::string& key, const char* expected) const {
  record(key, node);
  if (!node.IsDefined() || !node.IsScalar() || node.Scalar().empty())
    fail(node, key, std::string("expected ") + expected + ", got " + describe_node(node));
  return node.Scalar();
}

std::string YamlReader::str(const YAML::Node& node, const std::string& key) const {
  return scalar(node, key, "a non-empty string");
}

std::string YamlReader::name(const YAML::Node& node, const std::string& key) const {
  const std::string text = str(node, key);
  if (const std::size_t i = first_control_char(text); i != std::string::npos)
    fail(node, key, "expected a name without control characters (a line break, tab or NUL), got one at byte " +
                        std::to_string(i + 1));
  return text;
}

namespace {
/** Why a scalar is not taken as `expected` for its quotes or tag ("" when it is): a quoted scalar ("3", '0.4') or a
 *  tagged one (!!str 3, !foo 3) is a string or something else in YAML, and taking it as a number would be a guess.
 *  Plain scalars are taken, and those with one of `core_tags` (YAML's own int, float, bool). */
std::string tag_problem(const YAML::Node& node, const char* expected, const std::string& text,
                        std::initializer_list<const char*> core_tags) {
  const std::string& tag = node.Tag();
  if (tag == "?") return "";
  const std::string core = "tag:yaml.org,2002:";
  for (const char* t : core_tags)
    if (tag == core + t) return "";
  if (tag == "!")
    return std::string("expected ") + expected + ", got the quoted string '" + text + "' (write it without quotes)";
  const std::string shown = tag.rfind(core, 0) == 0 ? "!!" + tag.substr(core.size()) : tag;
  return std::string("expected ") + expected + ", got '" + text + "' tagged " + shown + " (write it without the tag)";
}
}  // namespace

long long YamlReader::integer(const YAML::Node& node, const std::string& key, long long min, long long max) const {
  const std::string text = scalar(node, key, "an integer");
  if (const std::string why = tag_problem(node, "an integer", text, {"int"}); !why.empty()) fail(node, key, why);
  long long v = 0;
  // Below the range names its lower end only when the upper one is a 64-bit limit nobody writes; above it, both.
  const std::string range = "in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
  const std::string below = max >= (1LL << 62) ? ">= " + std::to_string(min) : range;
  if (!YAML::convert<long long>::decode(node, v)) {
    const bool digits = text.find_first_not_of("0123456789", text[0] == '-' || text[0] == '+' ? 1 : 0) ==
                        std::string::npos;
    if (digits && text.size() > 1)  // an integer, only too long for 64 bits
      fail(node, key, "'" + text + "' is out of range (expected an integer " + range + ")");
    fail(node, key, "expected an integer, got '" + text + "'");
  }
  // YAML 1.1 reads 010 as 8 and 0x10 as 16: only plain decimal is taken, so a typo is never a silent other number.
  const std::size_t first = text[0] == '-' || text[0] == '+' ? 1 : 0;
  if (text.find_first_not_of("0123456789", first) != std::string::npos ||
      (text.size() > first + 1 && text[first] == '0'))
    fail(node, key, "expected a decimal integer, got '" + text + "' (a leading 0 or 0x is octal or hex in YAML)");
  if (v < min || v > max) fail(node, key, "expected an integer " + (v < min ? below : range) + ", got " + text);
  return v;
}

double YamlReader::number(const YAML::Node& node, const std::string& key) const {
  const std::string text = scalar(node, key, "a number");
  if (const std::string why = tag_problem(node, "a number", text, {"int", "float"}); !why.empty()) fail(node, key, why);
  double v = 0;
  if (!YAML::convert<double>::decode(node, v) || !std::isfinite(v))
    fail(node, key, "expected a number, got '" + text + "'");
  return v;
}

bool YamlReader::boolean(const YAML::Node& node, const std::string& key) const {
  const std::string text = scalar(node, key, "true or false");
  if (const std::string why = tag_problem(node, "true or false", text, {"bool"}); !why.empty()) fail(node, key, why);
  // YAML 1.2's spellings only: yaml-cpp also reads YAML 1.1's yes/no/on/off/y/n, which the README does not promise
  // (and `n` as false is easily a typo).
  static const std::vector<std::string> spellings{"true", "True", "TRUE", "false", "False", "FALSE"};
  bool v = false;
  if (std::find(spellings.begin(), spellings.end(), text) == spellings.end() || !YAML::convert<bool>::decode(node, v))
    fail(node, key, "expected true or false, got '" + text + "'");
  return v;
}

std::string YamlReader::one_of(const YAML::Node& node, const std::string& key,
                               const std::vector<std::string>& allowed) const {
  std::string list;
  for (std::size_t i = 0; i < allowed.size(); ++i) list += (i ? " | " : "") + allowed[i];
  const std::string text = scalar(node, key, ("one of " + list).c_str());
  for (const auto& a : allowed)
    if (a == text) return text;
  const std::string best = closest_name(text, allowed);
  fail(node, key,
       "'" + text + "' is not allowed: expected one of " + list +
           (best.empty() ? "" : " (did you mean '" + best + "'?)"));
}

namespace {
template <typename F>
double unit_value(const YamlReader& r, const YAML::Node& node, const std::string& key, const char* what, F parse,
                  const Bound& bound) {
  r.record(key, node);
  if (!node.IsDefined() || !node.IsScalar() || node.Scalar().empty())
    r.fail(node, key, std::string("expected ") + what + ", got " + describe_node(node));
  double v = 0;
  try {
    v = parse(node.Scalar());
  } catch (const std::invalid_argument& e) {
    r.fail(node, key, e.what());
  }
  const std::string problem = bound_problem(v, bound, node.Scalar());
  if (!problem.empty()) r.fail(node, key, problem);
  return v;
}
}  // namespace

double YamlReader::bandwidth_Bps(const YAML::Node& node, const std::string& key, const Bound& bound) const {
  return unit_value(*this, node, key, "a bandwidth like '10Gbps'", parse_bandwidth_Bps, bound);
}
double YamlReader::latency_s(const YAML::Node& node, const std::string& key, const Bound& bound) const {
  return unit_value(*this, node, key, "a latency like '50us'", parse_latency_s, bound);
}
double YamlReader::bytes(const YAML::Node& node, const std::string& key, const Bound& bound) const {
  return unit_value(*this, node, key, "a size like '40GB'", parse_bytes, bound);
}
double YamlReader::flops(const YAML::Node& node, const std::string& key, const Bound& bound) const {
  return unit_value(*this, node, key, "a compute rate like '312Tf'", parse_flops, bound);
}

}  // namespace hulk
