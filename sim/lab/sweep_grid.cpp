#include "sim/lab/sweep_grid.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <optional>
#include <sstream>

#include "sim/core/input_file.hpp"
#include "sim/core/csv_text.hpp"
#include "sim/core/errors.hpp"
#include "sim/lab/sweep_columns.hpp"
#include "sim/lab/sweep_manifest.hpp"
#include "sim/report/outputs.hpp"

namespace hulk {
namespace {

namespace fs = std::filesystem;

/** The value index of every axis at a grid point (first axis varies slowest). */
std::vector<std::size_t> point_coords(const std::vector<SweepAxis>& axes, std::size_t point) {
  std::vector<std::size_t> idx(axes.size());
  for (std::size_t i = axes.size(); i-- > 0;) {
    idx[i] = point % axes[i].values.size();
    point /= axes[i].values.size();
  }
  return idx;
}

std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

/** Splits one CSV line into fields (quoted fields as csv_field writes them). */
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') fields.back() += '"', ++i;
      else if (c == '"') quoted = false;
      else fields.back() += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

/** `s` without leading and trailing spaces and tabs. */
std::string trim_spaces(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  return first == std::string::npos ? std::string() : s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

/** Splits a --set value list on the commas outside {} and [] (and outside quotes), so that a YAML flow map or list
 *  such as {bandwidth: 25Gbps, latency: 10us} is one value. */
std::vector<std::string> split_top_level(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  char quote = 0;
  for (char c : text) {
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if ((c == '}' || c == ']') && depth > 0) {
      --depth;
    } else if (c == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  out.push_back(cur);
  if (depth != 0 || quote) throw InputError("", 0, "--set", "unbalanced brackets or quotes in '" + text + "'");
  return out;
}

/** An absent ratio (a method or its reference failed) is an empty CSV field, never 0. */
std::string optional_number(const std::optional<double>& v) { return v ? number(*v) : ""; }

}  // namespace

std::vector<SweepAxis> parse_sweep_axes(const std::vector<std::string>& sets) {
  std::vector<SweepAxis> axes;
  for (const auto& s : sets) {
    const auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == s.size())
      throw InputError("", 0, "--set", "'" + s + "' is not KEY=V1,V2,... (e.g. wan.default.bandwidth=100Mbps,1Gbps)");
    SweepAxis a{s.substr(0, eq), {}};
    for (const auto& other : axes)
      if (other.key == a.key)
        throw InputError("", 0, "--set", "key '" + a.key + "' is given twice (expected one --set per key)");
    for (const auto& v : split_top_level(s.substr(eq + 1))) {
      if (v.empty()) throw InputError("", 0, "--set", "'" + s + "' has an empty value (expected KEY=V1,V2,...)");
      // The same point twice would be simulated twice and fill two rows with one result ("1" and " 1" are one
      // YAML value; other spellings of one number are not looked for).
      const auto same = [&](const std::string& w) { return trim_spaces(w) == trim_spaces(v); };
      if (std::any_of(a.values.begin(), a.values.end(), same))
        throw InputError("", 0, "--set", "value '" + v + "' of key '" + a.key +
                                             "' is given twice (expected each value once)");
      a.values.push_back(v);
    }
    axes.push_back(a);
  }
  if (axes.empty()) throw InputError("", 0, "--set", "give at least one --set KEY=V1,V2,...");
  return axes;
}

std::size_t sweep_point_count(const std::vector<SweepAxis>& axes) {
  std::size_t points = 1;
  for (const auto& a : axes) points *= a.values.size();
  return points;
}

std::vector<Override> sweep_point_overrides(const std::vector<SweepAxis>& axes, std::size_t point) {
  std::vector<Override> ov;
  const auto idx = point_coords(axes, point);
  for (std::size_t i = 0; i < axes.size(); ++i) ov.push_back({axes[i].key, axes[i].values[idx[i]]});
  return ov;
}

std::string sweep_point_label(const std::vector<SweepAxis>& axes, std::size_t point) {
  std::string label;
  for (const auto& o : sweep_point_overrides(axes, point)) label += (label.empty() ? "" : " ") + o.key + "=" + o.value;
  return label;
}

std::string sweep_csv_header(const std::vector<SweepAxis>& axes, bool layout_column) {
  std::string h = "point";
  for (const SweepColumn& c : sweep_value_columns(axes)) h += "," + csv_field(c.name);
  for (const std::string& c : sweep_result_columns()) h += "," + c;
  return layout_column ? h + ",layout" : h;
}

std::string sweep_csv_rows(const std::vector<SweepAxis>& axes, std::size_t point, const CompareReport& report,
                           const std::string* layout) {
  std::string prefix = std::to_string(point);
  for (const std::string& f : sweep_point_fields(axes, sweep_value_columns(axes), point)) prefix += "," + csv_field(f);
  std::string rows;
  for (const auto& r : report.results)
    rows += prefix + "," + r.method + "," + (r.ok ? "1" : "0") + "," + (r.ok ? number(r.iteration_time_s) : "") +
            "," + optional_number(r.speedup_vs_round_robin) + "," + optional_number(r.speedup_vs_greedy) + "," +
            optional_number(r.gap_to_lower_bound) + "," + number(report.lower_bound_s) + "," +
            (r.ok ? number(r.method_wall_s) : "") + "," + optional_number(r.compute_time_share) + "," +
            optional_number(r.mfu) + "," + csv_field(r.error) + (layout ? "," + csv_field(*layout) : "") + "\n";
  return rows;
}

namespace {

/** A resumed row counts as a result only if it reads as one: ok (the field at `ok_column`) 0 or 1, and an ok row's
 *  iteration time (the next field) a finite positive number (a hand-edited or damaged "nan" would otherwise be kept
 *  as the point's answer). */
bool reads_as_result(const std::vector<std::string>& fields, std::size_t ok_column) {
  const std::string& ok = fields[ok_column];
  if (ok == "0") return true;
  if (ok != "1") return false;
  const std::string& time = fields[ok_column + 1];
  char* end = nullptr;
  const double t = std::strtod(time.c_str(), &end);
  return !time.empty() && end == time.c_str() + time.size() && std::isfinite(t) && t > 0;
}

/** The "ok" column of a header's fields: the last one so named (the result columns come after every value
 *  column); 0 if there is none. */
std::size_t ok_column_of(const std::vector<std::string>& header) {
  for (std::size_t i = header.size(); i-- > 1;)
    if (header[i] == "ok") return i;
  return 0;
}

/** The rows after the header line of a sweep file: as they are in the current layout, converted from the earlier
 *  one (a sweep started before the value columns were split resumes in the new layout). @throws InputError for any
 *  other header. */
std::vector<std::string> rows_in_current_layout(std::istream& in, const std::string& header, const std::string& path,
                                                const std::vector<SweepAxis>& axes,
                                                const std::vector<std::string>& methods, bool layout_column) {
  const bool legacy = !layout_column && header == legacy_sweep_csv_header(axes);
  if (!legacy && header != sweep_csv_header(axes, layout_column))
    throw InputError(path, 1, "", "existing sweep file has a different header (other keys or version); "
                                  "use another --out or delete it");
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const std::string row = legacy ? convert_legacy_sweep_row(axes, csv_fields(line), methods) : line;
    if (!row.empty()) out.push_back(row);
  }
  return out;
}

}  // namespace

std::set<std::size_t> completed_sweep_points(const std::string& path, const std::vector<SweepAxis>& axes,
                                             const std::vector<std::string>& methods, bool layout_column) {
  std::set<std::size_t> done;
  std::ifstream in(path);
  if (!in) return done;
  const std::string head = sweep_csv_header(axes, layout_column);
  std::string line;
  if (!std::getline(in, line)) {  // an empty file (a run stopped before its header): the header, no rows
    write_file_atomic(path, head + "\n");
    return done;
  }
  // A row counts only if its point index, its values and its method all belong to the current grid: rows are keyed
  // by grid point and method, never counted, so a changed value list can neither duplicate nor skip a point.
  const std::set<std::string> wanted(methods.begin(), methods.end());
  std::map<std::size_t, std::map<std::string, std::string>> rows;  // point -> method -> line
  const std::size_t points = sweep_point_count(axes);
  const std::vector<SweepColumn> value_columns = sweep_value_columns(axes);
  const std::size_t k = value_columns.size();
  // A row of fewer fields than the header (cut short) is not a result: its point runs again.
  const std::size_t columns = csv_fields(head).size();
  for (const std::string& row : rows_in_current_layout(in, line, path, axes, methods, layout_column)) {
    const std::vector<std::string> f = csv_fields(row);
    if (f.size() != columns || !reads_as_result(f, k + 2)) continue;
    std::size_t point = 0;
    try {
      point = std::stoul(f[0]);
    } catch (...) {
      continue;
    }
    if (point >= points) continue;
    const std::vector<std::string> values = sweep_point_fields(axes, value_columns, point);
    const std::string& method = f[k + 1];
    if (std::equal(values.begin(), values.end(), f.begin() + 1) && wanted.count(method)) rows[point][method] = row;
  }
  std::string kept = head + "\n";
  for (const auto& [point, by_method] : rows) {
    if (by_method.size() != wanted.size()) continue;
    done.insert(point);
    for (const auto& m : methods) kept += by_method.at(m) + "\n";  // the requested order, as a fresh run writes
  }
  write_file_atomic(path, kept);
  return done;
}

void append_sweep_rows(const std::string& path, const std::string& rows) {
  errno = 0;
  std::ofstream out(path, std::ios::app);
  out << rows << std::flush;
  out.close();
  if (!out)
    throw OutputError(path, std::string("could not append the point's rows to the sweep file: ") +
                                (errno ? std::strerror(errno) : "the system gave no reason (a full disk?)"));
}

namespace {

/** Reads the rows of shard `index` of `count` into rows (point -> lines). Every row must have as many fields as
 *  the `header`; with the shards' manifest, every row must be a point of this shard and a method of the sweep, once,
 *  and every (point, method) of the shard must be there (an interrupted shard is incomplete) unless allow_missing.
 *  @throws InputError naming the file and line of the first problem. */
void read_shard_rows(const std::string& path, int index, int count, const std::vector<std::string>& header,
                     const SweepManifest* manifest, bool allow_missing,
                     std::map<std::size_t, std::vector<std::string>>& rows) {
  const std::size_t fields = header.size();
  std::ifstream in = open_input_file(path, "shard", "the CSV a sweep shard writes");
  std::string line;
  std::getline(in, line);  // the header, checked by the caller
  std::set<std::pair<std::size_t, std::string>> seen;
  const std::size_t points = manifest ? sweep_point_count(manifest->grid) : 0;
  const std::size_t ok_column = ok_column_of(header), method_column = ok_column - 1;
  if (ok_column < 2 || ok_column + 1 >= fields)
    throw InputError(path, 1, "", "the header has no method, ok and iteration_time_s columns (expected the CSV a "
                                  "sweep shard writes)");
  for (int line_no = 2; std::getline(in, line); ++line_no) {
    if (line.empty()) continue;
    const std::vector<std::string> f = csv_fields(line);
    if (f.size() != fields)
      throw InputError(path, line_no, "", "has " + std::to_string(f.size()) + " fields, the header " +
                                              std::to_string(fields) + " (a truncated or edited row?)");
    std::size_t point = 0;
    try {
      std::size_t used = 0;
      point = std::stoul(f[0], &used);
      if (used != f[0].size()) throw std::invalid_argument(f[0]);
    } catch (const std::exception&) {
      throw InputError(path, line_no, "point", "'" + f[0] + "' is not a point index");
    }
    if (manifest) {
      if (point >= points || static_cast<int>(point % count) != index)
        throw InputError(path, line_no, "point",
                         std::to_string(point) + " is not a point of shard " + std::to_string(index) + " of " +
                             std::to_string(count) + " (the grid has " + std::to_string(points) + " points)");
      const std::string& method = f[method_column];
      if (std::find(manifest->methods.begin(), manifest->methods.end(), method) == manifest->methods.end())
        throw InputError(path, line_no, "method", "'" + method + "' is not a method of this sweep");
      if (!seen.insert({point, method}).second)
        throw InputError(path, line_no, "", "point " + std::to_string(point) + ", method " + method +
                                                " appears twice");
    }
    if (ok_column > 1 && !reads_as_result(f, ok_column))
      throw InputError(path, line_no, "iteration_time_s",
                       "'" + f[ok_column + 1] + "' with ok '" + f[ok_column] +
                           "' is not a result: expected ok 0, or ok 1 and a finite positive time in seconds "
                           "(a damaged or edited row?)");
    rows[point].push_back(line);
  }
  if (!manifest || allow_missing) return;
  for (std::size_t p = static_cast<std::size_t>(index); p < points; p += static_cast<std::size_t>(count))
    for (const std::string& m : manifest->methods)
      if (!seen.count({p, m}))
        throw InputError(path, 0, "", "incomplete: point " + std::to_string(p) + ", method " + m +
                                          " is missing (an interrupted shard? rerun its sweep --shard " +
                                          std::to_string(index) + "/" + std::to_string(count) +
                                          " to finish it, or pass --allow-missing)");
}

}  // namespace

SweepMerge merge_sweep_shards(const std::string& dir, bool allow_missing) {
  if (!fs::exists(dir)) throw InputError(dir, 0, "", "not found (expected the --out folder of a sharded sweep)");
  if (!fs::is_directory(dir)) throw InputError(dir, 0, "", "not a folder (expected the --out folder of a sharded sweep)");
  std::map<int, fs::path> shards;  // index -> file
  int count = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    int i = -1, n = -1;
    char tail[8] = {0};
    if (std::sscanf(name.c_str(), "sweep.shard-%d-of-%d.%7s", &i, &n, tail) != 3 || std::string(tail) != "csv")
      continue;
    if (count != 0 && n != count)
      throw InputError(e.path().string(), 0, "", "shards of " + std::to_string(count) + " and of " +
                                                      std::to_string(n) + " runs mixed in one folder");
    count = n;
    shards[i] = e.path();
  }
  if (shards.empty()) throw InputError(dir, 0, "", "no sweep.shard-*.csv files to merge");
  SweepMerge merge;
  merge.expected = static_cast<std::size_t>(count);
  for (int i = 0; i < count; ++i)
    if (!shards.count(i)) merge.missing.push_back(static_cast<std::size_t>(i));
  if (!merge.missing.empty() && !allow_missing) {
    std::string names;  // the first few: a run of 1,000 shards must not make a 30 kB line
    for (std::size_t k = 0; k < merge.missing.size() && k < 5; ++k)
      names += (names.empty() ? "" : ", ") + ("sweep.shard-" + std::to_string(merge.missing[k]) + "-of-" +
                                              std::to_string(count) + ".csv");
    if (merge.missing.size() > 5) names += " and " + std::to_string(merge.missing.size() - 5) + " more";
    throw InputError(dir, 0, "", std::to_string(merge.missing.size()) + " of " + std::to_string(count) +
                                     " shards missing (" + names + "); run them, or pass --allow-missing");
  }
  // Every shard must come from the same inputs; the merged CSV gets that manifest. A shard without its manifest is
  // refused: its inputs could not be checked (a shard of another grid, copied back without its manifest, would be
  // merged into rows that no longer match their points).
  std::optional<SweepManifest> manifest;
  for (const auto& [i, path] : shards) {
    const std::string mpath = sweep_manifest_path(path.string());
    if (!fs::exists(mpath))
      throw InputError(path.string(), 0, "",
                       "no manifest beside this shard (expected " + fs::path(mpath).filename().string() +
                           ", which `hulk sweep --shard` writes): copy it back with the CSV, so that the shards' "
                           "inputs can be checked against each other");
    const SweepManifest m = read_sweep_manifest(mpath);
    if (!manifest) manifest = m;
    const std::string diff = sweep_manifest_difference(*manifest, m);
    if (!diff.empty()) throw InputError(mpath, 0, "", "this shard was computed with other inputs: " + diff);
  }
  std::string head;
  std::map<std::size_t, std::vector<std::string>> rows;
  for (const auto& [i, path] : shards) {
    std::ifstream in = open_input_file(path.string(), "shard", "the CSV a sweep shard writes");
    std::string line;
    std::getline(in, line);
    if (head.empty()) head = line;
    if (line != head) throw InputError(path.string(), 1, "", "header differs from the other shards");
    read_shard_rows(path.string(), i, count, csv_fields(head), manifest ? &*manifest : nullptr, allow_missing,
                    rows);
  }
  // A sweep.csv of another sweep (an unsharded run with other inputs) is not silently replaced.
  const std::string merged_path = dir + "/sweep.csv";
  if (manifest && fs::exists(merged_path) && fs::exists(sweep_manifest_path(merged_path))) {
    const std::string diff = sweep_manifest_difference(read_sweep_manifest(sweep_manifest_path(merged_path)), *manifest);
    if (!diff.empty())
      throw InputError(merged_path, 0, "", "belongs to another sweep (" + diff + "); merge these shards elsewhere");
  }
  std::string out = head + "\n";
  for (const auto& [p, lines] : rows)
    for (const auto& l : lines) out += l + "\n";
  write_file_atomic(merged_path, out);
  if (manifest) write_sweep_manifest(sweep_manifest_path(dir + "/sweep.csv"), *manifest);
  merge.shards = shards.size();
  merge.points = rows.size();
  merge.grid_points = manifest ? sweep_point_count(manifest->grid) : 0;
  return merge;
}

}  // namespace hulk
