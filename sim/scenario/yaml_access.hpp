#pragma once
/** @file yaml_access.hpp
 *  @brief Typed, line-aware access to a parsed YAML tree: every read names the key path, and every problem throws
 *  InputError(file, line, key, message with the bad value and what was expected). Used by the scenario loader and
 *  the catalogs; nothing here knows the scenario schema. */
#include <yaml-cpp/yaml.h>

#include <map>
#include <string>
#include <vector>

namespace hulk {

/** @brief Reads one YAML document on behalf of one file. Records the line of every key path it reads so that
 *  checks done later on plain structs (job validation) can still point at a line. */
class YamlReader {
 public:
  /** @param file the path printed in errors. */
  explicit YamlReader(std::string file) : file_(std::move(file)) {}

  /** @brief Parses a file. @throws InputError if it cannot be read or is malformed (yaml-cpp's line). */
  static YAML::Node load_file(const std::string& path);

  const std::string& file() const { return file_; }

  /** @brief 1-based line of a node, 0 if unknown (nodes created by overrides have no position). */
  static int line_of(const YAML::Node& node);
  /** @brief "a.b" + "c" -> "a.b.c" ("" + "c" -> "c"). */
  static std::string join(const std::string& parent, const std::string& child);

  /** @brief Throws InputError at node's line. */
  [[noreturn]] void fail(const YAML::Node& at, const std::string& key, const std::string& message) const;
  /** @brief Throws InputError at the line recorded for key (0 if never read). */
  [[noreturn]] void fail_key(const std::string& key, const std::string& message) const;
  /** @brief Line recorded for a key path (0 if none). */
  int line_for(const std::string& key) const;
  /** @brief Declares that the value at key path came from an override (label: "--set key=value"): errors at or
   *  below it carry the label instead of a line of the file, which does not hold that value. */
  void add_override(const std::string& key, const std::string& label) { overrides_[key] = label; }
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
  /** @brief An integer in [min, max]. */
  long long integer(const YAML::Node& node, const std::string& key, long long min = -(1LL << 62),
                    long long max = (1LL << 62)) const;
  /** @brief A finite number. */
  double number(const YAML::Node& node, const std::string& key) const;
  /** @brief true/false (also yes/no/on/off). */
  bool boolean(const YAML::Node& node, const std::string& key) const;
  /** @brief One of a fixed set of words (exact match), else did-you-mean. */
  std::string one_of(const YAML::Node& node, const std::string& key, const std::vector<std::string>& allowed) const;
  /** @brief Unit quantities (units.hpp): bytes/s, seconds, bytes, flop/s. */
  double bandwidth_Bps(const YAML::Node& node, const std::string& key) const;
  double latency_s(const YAML::Node& node, const std::string& key) const;
  double bytes(const YAML::Node& node, const std::string& key) const;
  double flops(const YAML::Node& node, const std::string& key) const;

 private:
  std::string scalar(const YAML::Node& node, const std::string& key, const char* expected) const;
  /** @brief Label of the override that set key or one of its ancestors ("" if none). */
  std::string override_of(const std::string& key) const;
  std::string file_;
  mutable std::map<std::string, int> lines_;
  std::map<std::string, std::string> overrides_;
};

/** @brief The text of a node for messages: the scalar, or "a list"/"a map"/"nothing". */
std::string describe_node(const YAML::Node& node);

}  // namespace hulk
