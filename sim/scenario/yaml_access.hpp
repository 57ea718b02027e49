#pragma once
/** @file yaml_access.hpp
 *  @brief Typed, line-aware access to a parsed YAML tree: every read names the key path, and every problem throws
 *  InputError(file, line, key, message with the bad value and what was expected). Used by the scenario loader and
 *  the catalogs; nothing here knows the scenario schema. */
#include <yaml-cpp/yaml.h>

#include <map>
#include <string>
#include <vector>

#include "sim/core/data_dir.hpp"
#include "sim/core/errors.hpp"
#include "sim/scenario/bounds.hpp"

namespace hulk {

/** @brief Deepest nesting of lists and maps in a YAML file: a scenario needs fewer than ten levels. yaml-cpp stops
 *  by itself near 500 levels (against a stack overflow) with only "bad file"; this limit comes first, with a line. */
constexpr int kMaxYamlNesting = 64;

/** @brief What precheck_yaml found: each field 0 when absent. */
struct YamlPrecheck {
  /** 1-based line where lists and maps first nest deeper than max_levels (the top-level map counts as one level). */
  int too_deep_line = 0;
  /** 1-based line of a token yaml-cpp 0.7 never reads past: a ',' where a document begins (`,`; `--- ,`; `&a ,`;
   *  `  a: 1` then ` , b`, where the dedent ends the first document). Found by the fuzzer: LoadAll would loop for
   *  ever, so every YAML text is prechecked before yaml-cpp builds it. */
  int stuck_line = 0;
  char stuck_token = 0;  ///< that token's first character
};

/** @brief One pass over the parse events of `text` (no nodes built) for the problems yaml-cpp reports badly (nesting
 *  past its own guard near 500 levels: only "bad file") or never (a token it never reads past). Text malformed
 *  before either gives no finding: the real parse reports it. */
YamlPrecheck precheck_yaml(const std::string& text, int max_levels);

/** @brief Reads one YAML document on behalf of one file. Records the line of every key path it reads so that
 *  checks done later on plain structs (job validation) can still point at a line. One reader per file load, used
 *  by one thread: its const reads record into `lines_` and (collecting) `errors_`, the reader's results rather
 *  than scratch, hence mutable. */
class YamlReader {
 public:
  /** @param file the path printed in errors. */
  explicit YamlReader(std::string file) : file_(std::move(file)) {}

  /** @brief Parses a file. @throws InputError if it cannot be read, is malformed (yaml-cpp's line) or nests deeper
   *  than kMaxYamlNesting. */
  static YAML::Node load_file(const std::string& path);

  const std::string& file() const { return file_; }

  /** @brief 1-based line of a node, 0 if unknown (nodes created by overrides have no position). */
  static int line_of(const YAML::Node& node);
  /** @brief "a.b" + "c" -> "a.b.c" ("" + "c" -> "c"). */
  static std::string join(const std::string& parent, const std::string& child);

  /** @brief Thrown by skip_if_failed(): the part being read depends on a part that already failed (its error is
   *  collected), so it stops without adding a dependent error. collect() swallows it. */
  struct Skipped {};

  /** @brief Collecting mode (the scenario loader): check_keys records unknown and duplicate keys instead of
   *  throwing, and collect() records errors, so that one InputError can list every independent problem. Off by
   *  default: other readers (catalogs) stop at the first error. */
  void collect_errors(bool on) { collecting_ = on; }
  /** @brief Runs part(); an InputError it throws is recorded (in collecting mode; else re-thrown; a
   *  MissingDataFile always is).
   *  @return true if part() finished. */
  template <typename F>
  bool collect(F&& part) const {
    try {
      part();
      return true;
    } catch (const MissingDataFile&) {
      throw;  // the same for every key that needs the file: one line
    } catch (const InputError& e) {
      if (!collecting_) throw;
      errors_.push_back(e);
    } catch (const Skipped&) {
    }
    return false;
  }
  /** @brief Number of errors recorded so far. */
  std::size_t error_count() const { return errors_.size(); }
  /** @brief Throws Skipped if errors were recorded since error_count() was `before`. */
  void skip_if_failed(std::size_t before) const {
    if (errors_.size() > before) throw Skipped{};
  }
  /** @brief If errors were recorded: throws one InputError with the first error's file, line and key, whose
   *  message is every recorded error's one-line message, one per line, in the order found (the first line is
   *  what a stop-at-first-error loader would have said). */
  void throw_collected() const;

  /** @brief Throws InputError at node's line. */
  [[noreturn]] void fail(const YAML::Node& at, const std::string& key, const std::string& message) const;
  /** @brief Throws InputError at the line recorded for key (0 if never read). */
  [[noreturn]] void fail_key(const std::string& key, const std::string& message) const;
  /** @brief Line recorded for a key path (0 if none). */
  int line_for(const std::string& key) const;
  /** @brief Declares that the value at key path came from an override (label: "--set key=value"): errors at or
   *  below it carry the label instead of a line of the file, which does not hold that value. */
  void add_override(const std::string& key, const std::string& label) { overrides_[key] = label; }
  /** @brief Label of an override that set key or a value below it ("" if none): what brought a section in. */
  std::string override_within(const std::string& key) const;
  /** @brief Label of the override that set key or one of its ancestors ("" if none): a check that compares two
   *  values (a duplicate name) blames the one an override brought in. */
  std::string override_of(const std::string& key) const;
  /** @brief Remembers the line of a key path. */
  void record(const std::string& key, const YAML::Node& node) const;

  /** @brief Requires a map (a missing optional section is handled by the caller). */
  void expect_map(const YAML::Node& node, const std::string& key) const;
  /** @brief Requires a sequence. */
  void expect_list(const YAML::Node& node, const std::string& key) const;
  /** @brief Every key of map must be in allowed, else "unknown key 'x' (did you mean 'y'?)". Keys must be
   *  scalars. Also records the line of each key path. */
  void check_keys(const YAML::Node& map, const std::string& key, const std::vector<std::string>& allowed) const;
  /** @brief map[name], which must exist: else "missing key 'name'" at the map's line. */
  YAML::Node require(const YAML::Node& map, const std::string& key, const std::string& name) const;

  /** @brief A non-empty scalar string. */
  std::string str(const YAML::Node& node, const std::string& key) const;
  /** @brief A name (of the scenario, a job, a region, a GPU ...): str() without control characters, which would
   *  break the CSV rows and terminal lines it is printed in (a line break, a tab, a NUL). */
  std::string name(const YAML::Node& node, const std::string& key) const;
  /** @brief An integer in [min, max]. */
  long long integer(const YAML::Node& node, const std::string& key, long long min = -(1LL << 62),
                    long long max = (1LL << 62)) const;
  /** @brief A finite number. */
  double number(const YAML::Node& node, const std::string& key) const;
  /** @brief true/false (also yes/no/on/off). */
  bool boolean(const YAML::Node& node, const std::string& key) const;
  /** @brief One of a fixed set of words (exact match), else did-you-mean. */
  std::string one_of(const YAML::Node& node, const std::string& key, const std::vector<std::string>& allowed) const;
  /** @brief Unit quantities (units.hpp): bytes/s, seconds, bytes, flop/s, each inside its bound (bounds.hpp;
   *  the defaults are the bounds of links, GPU compute and GPU memory). */
  double bandwidth_Bps(const YAML::Node& node, const std::string& key,
                       const Bound& bound = bounds::kBandwidth) const;
  double latency_s(const YAML::Node& node, const std::string& key, const Bound& bound = bounds::kLatency) const;
  double bytes(const YAML::Node& node, const std::string& key, const Bound& bound = bounds::kMemory) const;
  double flops(const YAML::Node& node, const std::string& key, const Bound& bound = bounds::kFlops) const;

 private:
  std::string scalar(const YAML::Node& node, const std::string& key, const char* expected) const;
  /** @brief The error fail() would throw. */
  InputError error_at(const YAML::Node& at, const std::string& key, const std::string& message) const;
  /** @brief Records (collecting mode) or throws. */
  void soft_fail(const YAML::Node& at, const std::string& key, const std::string& message) const;
  std::string file_;
  bool collecting_ = false;
  mutable std::vector<InputError> errors_;
  mutable std::map<std::string, int> lines_;
  std::map<std::string, std::string> overrides_;
};

/** @brief The text of a node for messages: the scalar, or "a list"/"a map"/"nothing". */
std::string describe_node(const YAML::Node& node);

}  // namespace hulk
