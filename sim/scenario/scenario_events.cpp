// The `events:` list (link changes and failures, stragglers, host failures, trace files), a job's
// `checkpoint:` and the `robust:` distribution. Schema in scenarios/README.md ("Events").
#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "sim/core/input_file.hpp"
#include "sim/core/did_you_mean.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/core/units.hpp"
#include "sim/scenario/bounds.hpp"
#include "sim/scenario/event_values.hpp"
#include "sim/scenario/scenario_parts.hpp"

namespace hulk::detail {

namespace {

constexpr double kForGood = std::numeric_limits<double>::infinity();
constexpr std::size_t kMaxEvents = 1000000;  // events written and trace rows, together
constexpr long long kMaxCheckpointEvery = 1000000000;
constexpr long long kMaxRobustSamples = 100000;

const std::vector<std::string> kEventKeys = {"at",  "link", "host",  "trace", "bandwidth", "latency",
                                             "for", "down", "speed", "fail",  "restart"};

/** An event with where it was written: the file its errors name and its key path there. */
struct Parsed {
  EventSpec e;
  std::string file;  ///< the scenario, or the trace CSV (absolute path)
  std::string key;   ///< "events[3]", or "events[3].trace" for a trace row
};

/** The platform's names, looked up by events. */
struct Names {
  const PlatformSpec& platform;
  std::map<std::string, int> host_index;
  std::vector<std::string> hosts;
  explicit Names(const PlatformSpec& p) : platform(p) {
    for (std::size_t i = 0; i < p.hosts.size(); ++i) {
      host_index.emplace(p.hosts[i].name, static_cast<int>(i));
      hosts.push_back(p.hosts[i].name);
    }
  }
};

/** A time at key; positive: a duration, > 0. */
double time_s(const YamlReader& r, const YAML::Node& node, const std::string& key, bool positive) {
  r.record(key, node);
  if (!node.IsScalar() || node.Scalar().empty())
    r.fail(node, key, "expected a time like '120s', got " + describe_node(node));
  double v = 0;
  std::string problem = time_problem(node.Scalar(), v);
  if (problem.empty() && positive && !(v > 0)) problem = "expected a duration > 0, got '" + node.Scalar() + "'";
  if (!problem.empty()) r.fail(node, key, problem);
  return v;
}

/** Keys that do not go with this kind of event. */
void reject_keys(const YamlReader& r, const YAML::Node& n, const std::string& key, const std::vector<std::string>& keys,
                 const std::string& why) {
  for (const std::string& k : keys)
    if (n[k]) r.fail(n[k], key + "." + k, "'" + k + "' " + why);
}

// --- targets ---

std::string pair_text(const PlatformSpec& p, int a, int b) { return p.regions[a] + "~" + p.regions[b]; }

std::string target_text(const PlatformSpec& p, const EventTarget& t) {
  switch (t.kind) {
    case EventTarget::Kind::wan_pair:
      return "the WAN " + pair_text(p, t.region_a, t.region_b);
    case EventTarget::Kind::host_link:
      return "host " + p.hosts[t.host].name + "'s link";
    case EventTarget::Kind::host:
      break;
  }
  return "host " + p.hosts[t.host].name;
}

/** A host name's suggestion: did-you-mean, else the names when few, else a hint. */
std::string host_suggestion(const std::string& name, const Names& names) {
  const std::string best = closest_name(name, names.hosts);
  if (!best.empty()) return " (did you mean '" + best + "'?)";
  if (names.hosts.size() <= 12) return suggestion_suffix(name, names.hosts);
  return " (expected a host of the platform, e.g. '" + names.hosts.front() + "'; it has " +
         std::to_string(names.hosts.size()) + " hosts)";
}

/** Region index of name, or the problem in `problem`. */
int region_index(const std::string& name, const PlatformSpec& p, std::string& problem) {
  const auto it = std::find(p.regions.begin(), p.regions.end(), name);
  if (it != p.regions.end()) return static_cast<int>(it - p.regions.begin());
  problem = "unknown region '" + name + "'" + suggestion_suffix(name, p.regions);
  return -1;
}

EventTarget wan_pair(int a, int b) {
  EventTarget t;
  t.kind = EventTarget::Kind::wan_pair;
  t.region_a = std::min(a, b);
  t.region_b = std::max(a, b);
  return t;
}

/** `link: {between: [a, b]}` or `link: {host: h}`; names null: the platform failed (checks stop at the names). */
EventTarget link_target(const YamlReader& r, const YAML::Node& link, const std::string& key, const Names* names) {
  r.check_keys(link, key, {"between", "host"});
  if (link["between"].IsDefined() == link["host"].IsDefined())
    r.fail(link, key, "expected exactly one of between: [REGION, REGION] (a WAN pair) or host: NAME (a host's link)");
  if (link["host"]) {
    const std::string name = r.str(link["host"], key + ".host");
    if (names == nullptr) throw YamlReader::Skipped{};
    const auto it = names->host_index.find(name);
    if (it == names->host_index.end())
      r.fail(link["host"], key + ".host", "unknown host '" + name + "'" + host_suggestion(name, *names));
    EventTarget t;
    t.kind = EventTarget::Kind::host_link;
    t.host = it->second;
    return t;
  }
  const YAML::Node between = link["between"];
  r.expect_list(between, key + ".between");
  if (between.size() != 2)
    r.fail(between, key + ".between", "expected two region names [a, b], got " + std::to_string(between.size()));
  const std::string a = r.str(between[0], key + ".between"), b = r.str(between[1], key + ".between");
  if (names == nullptr) throw YamlReader::Skipped{};
  int idx[2];
  for (int k = 0; k < 2; ++k) {
    std::string problem;
    idx[k] = region_index(k == 0 ? a : b, names->platform, problem);
    if (idx[k] < 0) r.fail(between[k], key + ".between", problem);
  }
  if (idx[0] == idx[1])
    r.fail(between, key + ".between", "a WAN pair needs two different regions, got '" + a + "' twice");
  return wan_pair(idx[0], idx[1]);
}

/** `host: h` of a host event. */
EventTarget host_target(const YamlReader& r, const YAML::Node& node, const std::string& key, const Names* names) {
  const std::string name = r.str(node, key);
  if (names == nullptr) throw YamlReader::Skipped{};
  const auto it = names->host_index.find(name);
  if (it == names->host_index.end()) r.fail(node, key, "unknown host '" + name + "'" + host_suggestion(name, *names));
  EventTarget t;
  t.kind = EventTarget::Kind::host;
  t.host = it->second;
  return t;
}

// --- events written in the scenario ---

/** The values of a link event (link_change or link_down). */
void parse_link_values(const YamlReader& r, const YAML::Node& n, const std::string& key, EventSpec& e) {
  reject_keys(r, n, key, {"speed", "fail", "restart"}, "is for host events (host: NAME), not link events");
  if (n["down"]) {
    reject_keys(r, n, key, {"bandwidth", "latency", "for"},
                "does not go with down (down: DURATION is how long the link carries nothing)");
    e.kind = EventSpec::Kind::link_down;
    e.duration_s = time_s(r, n["down"], key + ".down", true);
    return;
  }
  if (!n["bandwidth"] && !n["latency"])
    r.fail(n, key, "a link event needs bandwidth, latency or both (or down: DURATION for a failure)");
  e.kind = EventSpec::Kind::link_change;
  if (n["bandwidth"]) {
    const std::string k = key + ".bandwidth";
    r.record(k, n["bandwidth"]);
    if (!n["bandwidth"].IsScalar() || n["bandwidth"].Scalar().empty())
      r.fail(n["bandwidth"], k,
             "expected a bandwidth like '300Mbps' or a share like '10%', got " + describe_node(n["bandwidth"]));
    const std::string problem = bandwidth_problem(n["bandwidth"].Scalar(), e);
    if (!problem.empty()) r.fail(n["bandwidth"], k, problem);
  }
  if (n["latency"]) e.latency_s = r.latency_s(n["latency"], key + ".latency");
  e.duration_s = n["for"] ? time_s(r, n["for"], key + ".for", true) : kForGood;
}

/** The values of a host event (host_speed or host_fail). */
void parse_host_values(const YamlReader& r, const YAML::Node& n, const std::string& key, EventSpec& e) {
  reject_keys(r, n, key, {"bandwidth", "latency", "down"},
              "is for link events (link: {host: NAME} changes a host's link), not host events");
  if (n["speed"] && n["fail"])
    r.fail(n["fail"], key + ".fail", "an event slows a host (speed) or fails it (fail), not both");
  if (n["speed"]) {
    reject_keys(r, n, key, {"restart"}, "goes with fail: true only");
    e.kind = EventSpec::Kind::host_speed;
    const std::string k = key + ".speed";
    const std::string text = r.str(n["speed"], k);
    const std::string problem = share_problem(text, kMaxEventFactor, "a share of the GPUs' speed", e.speed_factor);
    if (!problem.empty()) r.fail(n["speed"], k, problem);
  } else if (n["fail"]) {
    if (!r.boolean(n["fail"], key + ".fail"))
      r.fail(n["fail"], key + ".fail", "expected true (fail: true: the host dies; for: DURATION brings it back)");
    e.kind = EventSpec::Kind::host_fail;
    e.restart_s = time_s(r, r.require(n, key, "restart"), key + ".restart", false);
  } else {
    r.fail(n, key, "a host event needs speed: N% (a straggler) or fail: true (a failure)");
  }
  e.duration_s = n["for"] ? time_s(r, n["for"], key + ".for", true) : kForGood;
}

// --- trace files ---

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream ss(line);
  std::string cell;
  while (std::getline(ss, cell, ',')) cells.push_back(trim(cell));
  if (!line.empty() && line.back() == ',') cells.push_back("");
  return cells;
}

/** A trace's target: "REGION~REGION" (a WAN pair) or a host name (its link); "" or the problem. */
std::string trace_target(const std::string& text, const Names& names, EventTarget& t) {
  const auto tilde = text.find('~');
  if (tilde == std::string::npos) {
    const auto it = names.host_index.find(text);
    if (it == names.host_index.end()) {
      const std::string best = closest_name(text, names.hosts);
      return "unknown host '" + text + "'" +
             (best.empty() ? " (expected a host name, or a WAN pair written REGION~REGION)"
                           : " (did you mean '" + best + "'?)");
    }
    t.kind = EventTarget::Kind::host_link;
    t.host = it->second;
    return "";
  }
  const std::string a = trim(text.substr(0, tilde)), b = trim(text.substr(tilde + 1));
  std::string problem;
  const int ia = region_index(a, names.platform, problem);
  if (ia < 0) return problem + " in '" + text + "'";
  const int ib = region_index(b, names.platform, problem);
  if (ib < 0) return problem + " in '" + text + "'";
  if (ia == ib) return "a WAN pair needs two different regions, got '" + text + "'";
  t = wan_pair(ia, ib);
  return "";
}

std::tuple<int, int, int, int> target_id(const EventTarget& t) {
  return {static_cast<int>(t.kind), t.region_a, t.region_b, t.host};
}

/** The bandwidth and latency cells of a trace row (`columns` 3 or 4) into e: {column, problem}, problem empty when
 *  both are valid. A row may leave the bandwidth empty only when it gives a latency. */
std::pair<std::string, std::string> trace_row_values(const std::vector<std::string>& cells, std::size_t columns,
                                                     EventSpec& e) {
  const bool has_latency = columns == 4 && !cells[3].empty();
  if (cells[2].empty() && !has_latency)
    return {"bandwidth", "expected a bandwidth like '300Mbps' or a share like '10%' (empty only with a latency)"};
  if (!cells[2].empty()) {
    const std::string problem = bandwidth_problem(cells[2], e);
    if (!problem.empty()) return {"bandwidth", problem};
  }
  if (has_latency) {
    try {
      e.latency_s = parse_latency_s(cells[3]);
    } catch (const std::invalid_argument& ex) {
      return {"latency", ex.what()};
    }
    const std::string problem = bound_problem(e.latency_s, bounds::kLatency, cells[3]);
    if (!problem.empty()) return {"latency", problem};
  }
  return {"", ""};
}

/** The rows of trace file `rel` (entry `key` of the scenario), appended to out as link_change events. */
void read_trace(const YamlReader& r, const YAML::Node& node, const std::string& key, const std::string& rel,
                const std::string& abs, const Names& names, std::vector<Parsed>& out) {
  const std::string tkey = key + ".trace";
  std::ifstream in(abs);
  if (!in) r.fail(node, tkey, "cannot read trace file '" + abs + "'");
  const std::string from =
      " (trace of " + key + ", " + r.file() + ":" + std::to_string(YamlReader::line_of(node)) + ")";
  const auto bad = [&](int line, const std::string& column, const std::string& message) {
    throw InputError(abs, line, tkey, (column.empty() ? "" : column + ": ") + message + from);
  };
  const std::string header_help = "time,target,bandwidth or time,target,bandwidth,latency";
  std::size_t columns = 0;
  int line_no = 0, row = 0;
  std::map<std::tuple<int, int, int, int>, std::size_t> previous;  // target -> its last row in out
  std::string line;
  while (std::getline(in, line)) {
    ++line_no;
    if (line_no == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);  // a UTF-8 byte-order mark
    const std::string text = trim(line);
    if (text.empty() || text[0] == '#') continue;
    const std::vector<std::string> cells = split_csv(text);
    if (columns == 0) {
      const std::vector<std::string> three = {"time", "target", "bandwidth"};
      std::vector<std::string> four = three;
      four.push_back("latency");
      if (cells != three && cells != four)
        bad(line_no, "", "expected the header " + header_help + ", got '" + text + "'");
      columns = cells.size();
      continue;
    }
    ++row;
    if (out.size() >= kMaxEvents)
      bad(line_no, "", "too many events (expected at most " + std::to_string(kMaxEvents) + " with every trace row)");
    if (cells.size() != columns)
      bad(line_no, "",
          "expected " + std::to_string(columns) + " comma-separated values (" +
              (columns == 3 ? "time,target,bandwidth" : "time,target,bandwidth,latency") + "), got " +
              std::to_string(cells.size()));
    Parsed p;
    EventSpec& e = p.e;
    e.kind = EventSpec::Kind::link_change;
    e.origin = rel + " row " + std::to_string(row);
    e.line = line_no;
    std::string problem = time_problem(cells[0], e.at_s);
    if (!problem.empty()) bad(line_no, "time", problem);
    problem = trace_target(cells[1], names, e.target);
    if (!problem.empty()) bad(line_no, "target", problem);
    const auto [column, value_problem] = trace_row_values(cells, columns, e);
    if (!value_problem.empty()) bad(line_no, column, value_problem);
    // A row lasts until its target's next row; the last one for good.
    e.duration_s = kForGood;
    const auto id = target_id(e.target);
    const auto prev = previous.find(id);
    if (prev != previous.end()) {
      EventSpec& before = out[prev->second].e;
      if (!(e.at_s > before.at_s))
        bad(line_no, "time",
            "'" + cells[0] + "' is not after the previous row of " + cells[1] + " (" + before.origin + ", line " +
                std::to_string(before.line) + ", at " + seconds_text(before.at_s) +
                "; expected strictly increasing times for each target)");
      before.duration_s = e.at_s - before.at_s;
    }
    p.file = abs;
    p.key = tkey;
    previous[id] = out.size();
    out.push_back(p);
  }
  if (columns == 0) bad(std::max(line_no, 1), "", "empty trace (expected the header " + header_help + " and rows)");
  if (row == 0) bad(line_no, "", "the trace has a header but no rows (expected at least one row)");
}

/** `trace: FILE` (the entry's only key). */
void parse_trace(const YamlReader& r, const YAML::Node& n, const std::string& key, const Names* names,
                 const std::string& base_dir, std::vector<Parsed>& out) {
  for (const std::string& k : kEventKeys)
    if (k != "trace" && n[k])
      r.fail(n[k], key + "." + k, "'" + k + "' does not go with trace (each row of the file is a link change)");
  const YAML::Node node = n["trace"];
  const std::string rel = r.str(node, key + ".trace");
  const std::string abs = resolve_path(base_dir, rel);
  if (!path_exists(abs, false))
    r.fail(node, key + ".trace",
           "trace file '" + abs + "' " + input_file_problem(abs) +
               " (expected a CSV file with the header time,target,bandwidth[,latency])");
  if (names == nullptr) throw YamlReader::Skipped{};
  read_trace(r, node, key, rel, abs, *names, out);
}

/** Entry i of `events:`. */
void parse_entry(const YamlReader& r, const YAML::Node& n, std::size_t i, const Names* names,
                 const std::string& base_dir, std::vector<Parsed>& out) {
  const std::string key = "events[" + std::to_string(i) + "]";
  r.record(key, n);
  r.check_keys(n, key, kEventKeys);
  const int sources = (n["link"] ? 1 : 0) + (n["host"] ? 1 : 0) + (n["trace"] ? 1 : 0);
  if (sources != 1)
    r.fail(n, key,
           sources == 0 ? "expected one of link, host or trace (what the event acts on)"
                        : "expected exactly one of link, host or trace, got " + std::to_string(sources));
  if (n["trace"]) {
    parse_trace(r, n, key, names, base_dir, out);
    return;
  }
  if (out.size() >= kMaxEvents)
    r.fail(n, key, "too many events (expected at most " + std::to_string(kMaxEvents) + " with every trace row)");
  Parsed p;
  p.file = r.file();
  p.key = key;
  EventSpec& e = p.e;
  e.origin = key;
  e.line = YamlReader::line_of(n);
  e.at_s = time_s(r, r.require(n, key, "at"), key + ".at", false);
  // Values first, names last: with a failed platform the values are still checked.
  if (n["link"]) {
    parse_link_values(r, n, key, e);
    e.target = link_target(r, n["link"], key + ".link", names);
  } else {
    parse_host_values(r, n, key, e);
    e.target = host_target(r, n["host"], key + ".host", names);
  }
  out.push_back(p);
}

// --- contradictory overlaps ---

enum class Setting { bandwidth, latency, speed, failure };

std::vector<Setting> settings_of(const EventSpec& e) {
  switch (e.kind) {
    case EventSpec::Kind::link_change: {
      std::vector<Setting> s;
      if (e.bandwidth_factor > 0 || e.bandwidth_Bps > 0) s.push_back(Setting::bandwidth);
      if (e.latency_s >= 0) s.push_back(Setting::latency);
      return s;
    }
    case EventSpec::Kind::link_down:
      return {Setting::bandwidth, Setting::latency};
    case EventSpec::Kind::host_speed:
      return {Setting::speed};
    case EventSpec::Kind::host_fail:
      break;
  }
  return {Setting::failure};
}

std::string window_text(const EventSpec& e) {
  return "[" + seconds_text(e.at_s) + ", " +
         (std::isinf(e.duration_s) ? std::string("for good") : seconds_text(e.at_s + e.duration_s)) + ")";
}

std::string conflict_message(const PlatformSpec& p, const EventSpec& later, const EventSpec& earlier, Setting s) {
  std::string what;
  switch (s) {
    case Setting::bandwidth:
      what = "both set the bandwidth of " + target_text(p, later.target);
      break;
    case Setting::latency:
      what = "both set the latency of " + target_text(p, later.target);
      break;
    case Setting::speed:
      what = "both set the speed of " + target_text(p, later.target);
      break;
    case Setting::failure:
      what = "both fail " + target_text(p, later.target) + " (it is down then)";
      break;
  }
  return later.origin + " " + window_text(later) + " overlaps " + earlier.origin + " (line " +
         std::to_string(earlier.line) + ") " + window_text(earlier) + ": " + what +
         " (expected one such event at a time: end the first with for:, or start the second later)";
}

/** Contradictory overlaps (same target, same setting, overlapping windows), each reported at the later event. */
void check_overlaps(const YamlReader& r, const std::vector<Parsed>& ev, const PlatformSpec& p) {
  std::map<std::tuple<int, int, int, int, int>, std::vector<std::size_t>> groups;  // (setting, target) -> events
  for (std::size_t i = 0; i < ev.size(); ++i)
    for (const Setting s : settings_of(ev[i].e)) {
      const auto [k, a, b, h] = target_id(ev[i].e.target);
      groups[{static_cast<int>(s), k, a, b, h}].push_back(i);
    }
  std::map<std::size_t, std::pair<std::size_t, Setting>> conflicts;  // later -> (earlier, setting), first one only
  for (auto& [id, members] : groups) {
    std::stable_sort(members.begin(), members.end(),
                     [&](std::size_t x, std::size_t y) { return ev[x].e.at_s < ev[y].e.at_s; });
    std::size_t reach = members.front();  // the earlier event that ends last
    for (std::size_t m = 1; m < members.size(); ++m) {
      const std::size_t j = members[m];
      const EventSpec& far = ev[reach].e;
      if (ev[j].e.at_s < far.at_s + far.duration_s && conflicts.count(j) == 0)
        conflicts[j] = {reach, static_cast<Setting>(std::get<0>(id))};
      if (ev[j].e.at_s + ev[j].e.duration_s > far.at_s + far.duration_s) reach = j;
    }
  }
  for (const auto& conflict : conflicts)  // not a structured binding: C++17 lambdas cannot capture one (clang)
    r.collect([&] {
      const Parsed& later = ev[conflict.first];
      const auto& c = conflict.second;
      const std::string message = conflict_message(p, later.e, ev[c.first].e, c.second);
      if (later.file == r.file()) r.fail_key(later.key, message);
      throw InputError(later.file, later.e.line, later.key, message + " (in the events of " + r.file() + ")");
    });
}

}  // namespace

std::vector<EventSpec> parse_events(const YamlReader& r, const YAML::Node& node, const PlatformSpec* platform,
                                    const std::string& base_dir) {
  r.expect_list(node, "events");
  if (node.size() == 0) return {};
  if (platform != nullptr && !platform->simgrid_xml.empty())
    r.fail(node, "events",
           "events are not supported on SimGrid XML platforms (the engine cannot map regions to its links)");
  std::optional<Names> names;
  if (platform != nullptr) names.emplace(*platform);
  const Names* n = names ? &*names : nullptr;
  std::vector<Parsed> parsed;
  const std::size_t before = r.error_count();
  bool all_read = true;
  for (std::size_t i = 0; i < node.size(); ++i)
    all_read = r.collect([&] { parse_entry(r, node[i], i, n, base_dir, parsed); }) && all_read;
  // Overlaps compare events on resolved targets: only when every entry was read.
  if (!all_read || r.error_count() > before || n == nullptr) throw YamlReader::Skipped{};
  check_overlaps(r, parsed, *platform);
  r.skip_if_failed(before);
  std::vector<EventSpec> events;
  events.reserve(parsed.size());
  for (Parsed& p : parsed) events.push_back(std::move(p.e));
  std::stable_sort(events.begin(), events.end(),
                   [](const EventSpec& a, const EventSpec& b) { return a.at_s < b.at_s; });
  return events;
}

void check_events_with_jobs(const Scenario& s, const YamlReader& r) {
  if (s.events.empty()) return;
  // Under LV08 and SMPI, SimGrid 3.32 reports a deadlock when a link goes down while a transfer crosses it; CM02
  // pauses the transfer as it should. Refused rather than crashed.
  if (s.network.model != "CM02")
    for (const EventSpec& e : s.events)
      if (e.kind == EventSpec::Kind::link_down)
        r.fail_key(e.origin.empty() ? std::string("events") : e.origin,
                   "a link `down` needs network.model: CM02 (under " + s.network.model +
                       " SimGrid stops with a deadlock when a transfer is on the link as it goes down); expected "
                       "CM02, or a bandwidth event such as `bandwidth: 1%` instead");
  for (const JobSpec& j : s.jobs)
    if (j.sync.diloco())
      r.fail_key("events",
                 "events are not supported yet with job.sync.algorithm: diloco (expected algorithm: step "
                 "or no events)");
}

CheckpointSpec parse_checkpoint(const YamlReader& r, const YAML::Node& node, const std::string& key) {
  r.check_keys(node, key, {"every", "cost"});
  CheckpointSpec c;
  // Each field on its own: both problems are reported.
  r.collect([&] {
    c.every = static_cast<int>(r.integer(r.require(node, key, "every"), key + ".every", 1, kMaxCheckpointEvery));
  });
  // cost defaults to 0 s, so that `--set job.checkpoint.every=N` alone gives a job checkpoints.
  if (node["cost"]) r.collect([&] { c.cost_s = time_s(r, node["cost"], key + ".cost", false); });
  return c;
}

RobustSpec parse_robust(const YamlReader& r, const YAML::Node& node, std::uint64_t scenario_seed) {
  r.check_keys(node, "robust", {"pair_probability", "bandwidth", "samples", "seed"});
  RobustSpec s;
  s.samples = 16;
  s.seed = scenario_seed;
  r.collect([&] {
    const YAML::Node p = r.require(node, "robust", "pair_probability");
    s.pair_probability = r.number(p, "robust.pair_probability");
    if (!(s.pair_probability >= 0 && s.pair_probability <= 1))
      r.fail(p, "robust.pair_probability", "expected a probability in [0, 1], got '" + p.Scalar() + "'");
  });
  r.collect([&] {
    const YAML::Node b = r.require(node, "robust", "bandwidth");
    const std::string problem =
        share_problem(r.str(b, "robust.bandwidth"), 1.0, "a share of a pair's bandwidth", s.bandwidth_factor);
    if (!problem.empty()) r.fail(b, "robust.bandwidth", problem);
  });
  if (node["samples"])
    r.collect(
        [&] { s.samples = static_cast<int>(r.integer(node["samples"], "robust.samples", 1, kMaxRobustSamples)); });
  if (node["seed"]) r.collect([&] { s.seed = static_cast<std::uint64_t>(r.integer(node["seed"], "robust.seed", 0)); });
  return s;
}

}  // namespace hulk::detail
