// The events scenario keys: `events:` (link changes and failures, stragglers, host failures, trace files),
// `job.checkpoint` and `robust:`. Values read, defaults, order, and every bad input one line naming the file, the
// line and the key.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/scenario/scenario.hpp"
#include "temp_file.hpp"

using namespace hulk;

namespace {

const char* kFolder = "hulk_scenario_events_tests";

std::string write_temp(const std::string& name, const std::string& text) {
  return hulk_test::write_temp_file(kFolder, name, text);
}

/** Three regions (us-east 2 hosts, eu-west 2 hosts, ap-south 1 host; hosts us-east-0 ... ap-south-0), a dp 4 job
 *  ending at line 13 with JOB_EXTRA lines after it, then `events:` and the events one per line (the first at line
 *  15 without job_extra), then TAIL. */
std::string scenario(const std::vector<std::string>& events, const std::string& tail = "",
                     const std::string& job_extra = "") {
  std::string s =
      "name: ev\n"                                                            // 1
      "seed: 5\n"                                                             // 2
      "platform:\n"                                                           // 3
      "  regions:\n"                                                          // 4
      "    - {name: us-east, hosts: 2, gpus_per_host: 1, gpu: A100-80GB}\n"   // 5
      "    - {name: eu-west, hosts: 2, gpus_per_host: 1, gpu: A100-80GB}\n"   // 6
      "    - {name: ap-south, hosts: 1, gpus_per_host: 1, gpu: A100-80GB}\n"  // 7
      "  wan:\n"                                                              // 8
      "    default: {bandwidth: 1Gbps, latency: 30ms}\n"                      // 9
      "job:\n"                                                                // 10
      "  model: {preset: bert-large}\n"                                       // 11
      "  global_batch: 8\n"                                                   // 12
      "  parallelism: {dp: 4}\n"                                              // 13
      + job_extra;
  if (!events.empty()) {
    s += "events:\n";  // 14
    for (const std::string& e : events) s += "  - " + e + "\n";
  }
  return s + tail;
}

/** The InputError of loading text as NAME ("" if it loads). */
InputError error_of(const std::string& name, const std::string& text) {
  try {
    load_scenario(write_temp(name, text));
  } catch (const InputError& e) {
    return e;
  }
  return InputError("", 0, "", "no error");
}

/** One event (at line 15) is refused: one line, at line 15, naming key and containing text. */
void expect_bad_event(const std::string& event, const std::string& key, const std::string& text) {
  const InputError e = error_of("bad.yaml", scenario({event}));
  const std::string what = e.what();
  EXPECT_EQ(e.key(), key) << event << " -> " << what;
  EXPECT_EQ(e.line(), 15) << event << " -> " << what;
  EXPECT_NE(what.find("bad.yaml:15: " + key + ": "), std::string::npos) << event << " -> " << what;
  EXPECT_NE(what.find(text), std::string::npos) << event << " -> " << what;
  EXPECT_EQ(what.find('\n'), std::string::npos) << what;
}

/** A scenario with a trace file NAME holding CSV (beside the scenario, written as traces/NAME) plus `events`. */
std::string with_trace(const std::string& name, const std::string& csv, const std::vector<std::string>& more = {}) {
  hulk_test::write_temp_file(std::string(kFolder) + "/traces", name, csv);
  std::vector<std::string> events = {"{trace: traces/" + name + "}"};
  events.insert(events.end(), more.begin(), more.end());
  return scenario(events);
}

const double kInf = std::numeric_limits<double>::infinity();

}  // namespace

TEST(ScenarioEvents, EachKindIsReadWithItsValues) {
  const Scenario s = load_scenario(write_temp(
      "kinds.yaml", scenario({
                        "{at: 120s, link: {between: [eu-west, us-east]}, bandwidth: 10%, for: 60s}",       // 15
                        "{at: 130s, link: {between: [us-east, ap-south]}, latency: 200ms}",                // 16
                        "{at: 10s, link: {host: us-east-1}, bandwidth: 300Mbps, latency: 5ms, for: 60s}",  // 17
                        "{at: 11s, link: {between: [us-east, eu-west]}, down: 30s}",                       // 18
                        "{at: 5s, host: eu-west-0, speed: 50%, for: 100s}",                                // 19
                        "{at: 300s, host: eu-west-1, fail: true, restart: 300s}",                          // 20
                        "{at: 400s, host: ap-south-0, fail: true, restart: 0s, for: 10min}",               // 21
                    })));
  ASSERT_EQ(s.events.size(), 7u);
  // Sorted by start: 5 s, 10 s, 11 s, 120 s, 130 s, 300 s, 400 s.
  const EventSpec& speed = s.events[0];
  EXPECT_EQ(speed.kind, EventSpec::Kind::host_speed);
  EXPECT_EQ(speed.target.kind, EventTarget::Kind::host);
  EXPECT_EQ(speed.target.host, 2);  // eu-west-0
  EXPECT_DOUBLE_EQ(speed.speed_factor, 0.5);
  EXPECT_DOUBLE_EQ(speed.at_s, 5);
  EXPECT_DOUBLE_EQ(speed.duration_s, 100);
  EXPECT_EQ(speed.origin, "events[4]");
  EXPECT_EQ(speed.line, 19);

  const EventSpec& nic = s.events[1];
  EXPECT_EQ(nic.kind, EventSpec::Kind::link_change);
  EXPECT_EQ(nic.target.kind, EventTarget::Kind::host_link);
  EXPECT_EQ(nic.target.host, 1);
  EXPECT_DOUBLE_EQ(nic.bandwidth_Bps, 300e6 / 8);
  EXPECT_DOUBLE_EQ(nic.bandwidth_factor, 0);
  EXPECT_DOUBLE_EQ(nic.latency_s, 0.005);
  EXPECT_DOUBLE_EQ(nic.duration_s, 60);
  EXPECT_EQ(nic.line, 17);

  const EventSpec& down = s.events[2];
  EXPECT_EQ(down.kind, EventSpec::Kind::link_down);
  EXPECT_EQ(down.target.kind, EventTarget::Kind::wan_pair);
  EXPECT_EQ(down.target.region_a, 0);
  EXPECT_EQ(down.target.region_b, 1);
  EXPECT_DOUBLE_EQ(down.duration_s, 30);

  const EventSpec& slow = s.events[3];
  EXPECT_EQ(slow.kind, EventSpec::Kind::link_change);
  EXPECT_EQ(slow.target.region_a, 0);  // written [eu-west, us-east]: stored lower index first
  EXPECT_EQ(slow.target.region_b, 1);
  EXPECT_DOUBLE_EQ(slow.bandwidth_factor, 0.1);
  EXPECT_DOUBLE_EQ(slow.bandwidth_Bps, 0);
  EXPECT_LT(slow.latency_s, 0);  // unchanged
  EXPECT_DOUBLE_EQ(slow.at_s, 120);
  EXPECT_DOUBLE_EQ(slow.duration_s, 60);
  EXPECT_EQ(slow.origin, "events[0]");
  EXPECT_EQ(slow.line, 15);

  const EventSpec& latency = s.events[4];
  EXPECT_EQ(latency.target.region_a, 0);
  EXPECT_EQ(latency.target.region_b, 2);
  EXPECT_DOUBLE_EQ(latency.latency_s, 0.2);
  EXPECT_DOUBLE_EQ(latency.bandwidth_factor, 0);
  EXPECT_DOUBLE_EQ(latency.bandwidth_Bps, 0);
  EXPECT_EQ(latency.duration_s, kInf);  // for good
  EXPECT_TRUE(latency.active_at(1e7));

  const EventSpec& fail = s.events[5];
  EXPECT_EQ(fail.kind, EventSpec::Kind::host_fail);
  EXPECT_EQ(fail.target.kind, EventTarget::Kind::host);
  EXPECT_EQ(fail.target.host, 3);
  EXPECT_DOUBLE_EQ(fail.restart_s, 300);
  EXPECT_EQ(fail.duration_s, kInf);

  const EventSpec& back = s.events[6];
  EXPECT_EQ(back.kind, EventSpec::Kind::host_fail);
  EXPECT_EQ(back.target.host, 4);
  EXPECT_DOUBLE_EQ(back.restart_s, 0);
  EXPECT_DOUBLE_EQ(back.duration_s, 600);
}

TEST(ScenarioEvents, SortedByStartTiesInTheOrderWritten) {
  const Scenario s = load_scenario(write_temp(
      "order.yaml", scenario({"{at: 2min, host: us-east-0, speed: 80%}", "{at: 60, host: us-east-1, speed: 80%}",
                              "{at: 60s, host: eu-west-0, speed: 80%}", "{at: 0, host: eu-west-1, speed: 150%}"})));
  ASSERT_EQ(s.events.size(), 4u);
  EXPECT_EQ(s.events[0].origin, "events[3]");
  EXPECT_DOUBLE_EQ(s.events[0].speed_factor, 1.5);  // above 100%: faster
  EXPECT_EQ(s.events[1].origin, "events[1]");
  EXPECT_EQ(s.events[2].origin, "events[2]");
  EXPECT_EQ(s.events[3].origin, "events[0]");
  EXPECT_DOUBLE_EQ(s.events[3].at_s, 120);
}

TEST(ScenarioEvents, WithoutTheKeysNothingChanges) {
  const Scenario s = load_scenario(write_temp("quiet.yaml", scenario({})));
  EXPECT_TRUE(s.events.empty());
  EXPECT_EQ(s.robust.samples, 0);
  EXPECT_EQ(s.only_job().checkpoint.every, 0);
  EXPECT_EQ(s.only_job().checkpoint.cost_s, 0);
  const Scenario empty = load_scenario(write_temp("empty.yaml", scenario({}, "events: []\n")));
  EXPECT_TRUE(empty.events.empty());
}

TEST(ScenarioEvents, BadEventsAreOneLineAtTheEntry) {
  // Targets.
  expect_bad_event("{at: 1s, link: {between: [us-east, eu-wst]}, bandwidth: 10%}", "events[0].link.between",
                   "unknown region 'eu-wst' (did you mean 'eu-west'?)");
  expect_bad_event("{at: 1s, link: {between: [us-east, us-east]}, bandwidth: 10%}", "events[0].link.between",
                   "two different regions");
  expect_bad_event("{at: 1s, link: {between: [us-east]}, bandwidth: 10%}", "events[0].link.between",
                   "expected two region names");
  expect_bad_event("{at: 1s, link: {host: us-east-7}, bandwidth: 10%}", "events[0].link.host",
                   "unknown host 'us-east-7' (did you mean 'us-east-0'?)");
  expect_bad_event("{at: 1s, host: useast-0, speed: 50%}", "events[0].host",
                   "unknown host 'useast-0' (did you mean 'us-east-0'?)");
  expect_bad_event("{at: 1s, link: {between: [us-east, eu-west], host: us-east-0}, bandwidth: 10%}", "events[0].link",
                   "exactly one of between");
  expect_bad_event("{at: 1s, link: {between: [us-east, eu-west], hots: a}, bandwidth: 10%}", "events[0].link.hots",
                   "unknown key 'hots' (did you mean 'host'?)");
  expect_bad_event("{at: 1s, bandwidth: 10%}", "events[0]", "expected one of link, host or trace");
  expect_bad_event("{at: 1s, host: us-east-0, link: {host: us-east-0}, speed: 50%}", "events[0]",
                   "expected exactly one of link, host or trace, got 2");
  expect_bad_event("{at: 1s, link: {host: us-east-0}, bandwidth: 10%, fro: 60s}", "events[0].fro",
                   "unknown key 'fro' (did you mean 'for'?)");
  expect_bad_event("[1s, us-east-0]", "events[0]", "expected a map");
  // Times.
  expect_bad_event("{link: {host: us-east-0}, bandwidth: 10%}", "events[0].at", "missing key 'at'");
  expect_bad_event("{at: -5s, host: us-east-0, speed: 50%}", "events[0].at", "'-5s' is not a time (negative)");
  expect_bad_event("{at: 5Gbps, host: us-east-0, speed: 50%}", "events[0].at", "is not a time ('Gbps' is the unit");
  expect_bad_event("{at: 1e9s, host: us-east-0, speed: 50%}", "events[0].at", "out of range (expected a time in");
  expect_bad_event("{at: 1s, host: us-east-0, speed: 50%, for: 0s}", "events[0].for", "expected a duration > 0");
  expect_bad_event("{at: 1s, link: {host: us-east-0}, down: 0}", "events[0].down", "expected a duration > 0");
  expect_bad_event("{at: 1s, link: {host: us-east-0}, down: 30s, for: 60s}", "events[0].for", "does not go with down");
  expect_bad_event("{at: 1s, link: {host: us-east-0}, down: 30s, bandwidth: 10%}", "events[0].bandwidth",
                   "does not go with down");
  // Link values.
  expect_bad_event("{at: 1s, link: {host: us-east-0}, for: 60s}", "events[0]", "needs bandwidth, latency or both");
  expect_bad_event("{at: 1s, link: {host: us-east-0}, bandwidth: 0%}", "events[0].bandwidth", "out of range");
  expect_bad_event("{at: 1s, link: {host: us-east-0}, bandwidth: -10%}", "events[0].bandwidth", "out of range");
  // A share too small to mean anything: '1e-300%' would make an iteration last 1e301 s.
  expect_bad_event("{at: 1s, link: {host: us-east-0}, bandwidth: 1e-300%}", "events[0].bandwidth",
                   "in [0.01%, 10000%]");
  expect_bad_event("{at: 1s, host: us-east-0, speed: 0.009%}", "events[0].speed", "in [0.01%, 10000%]");
  expect_bad_event("{at: 1s, link: {host: us-east-0}, bandwidth: ten%}", "events[0].bandwidth", "not a percentage");
  expect_bad_event("{at: 1s, link: {host: us-east-0}, bandwidth: fast}", "events[0].bandwidth",
                   "or a share of the link's own bandwidth like '10%'");
  expect_bad_event("{at: 1s, link: {host: us-east-0}, bandwidth: 0Mbps}", "events[0].bandwidth", "greater than zero");
  expect_bad_event("{at: 1s, link: {host: us-east-0}, latency: -1ms}", "events[0].latency", "negative");
  expect_bad_event("{at: 1s, link: {host: us-east-0}, speed: 50%}", "events[0].speed", "is for host events");
  // Host values.
  expect_bad_event("{at: 1s, host: us-east-0, speed: 0%}", "events[0].speed", "out of range");
  expect_bad_event("{at: 1s, host: us-east-0, speed: 0.5}", "events[0].speed", "not a percentage");
  expect_bad_event("{at: 1s, host: us-east-0, for: 5s}", "events[0]", "needs speed: N% (a straggler) or fail: true");
  expect_bad_event("{at: 1s, host: us-east-0, fail: false, restart: 1s}", "events[0].fail", "expected true");
  expect_bad_event("{at: 1s, host: us-east-0, fail: true}", "events[0].restart", "missing key 'restart'");
  expect_bad_event("{at: 1s, host: us-east-0, fail: true, restart: -1s}", "events[0].restart", "negative");
  expect_bad_event("{at: 1s, host: us-east-0, fail: true, speed: 50%, restart: 1s}", "events[0].fail", "not both");
  expect_bad_event("{at: 1s, host: us-east-0, fail: true, bandwidth: 10%, restart: 1s}", "events[0].bandwidth",
                   "is for link events");
  expect_bad_event("{at: 1s, host: us-east-0, speed: 50%, restart: 1s}", "events[0].restart", "fail: true only");
  // Trace entries take no other key.
  expect_bad_event("{trace: x.csv, at: 1s}", "events[0].at", "does not go with trace");
  expect_bad_event("{trace: no-such.csv}", "events[0].trace", "no-such.csv' not found");
}

TEST(ScenarioEvents, NotAListOrEveryProblemOfSeveralEntries) {
  InputError e = error_of("map.yaml", scenario({}, "events: {at: 1s}\n"));
  EXPECT_EQ(e.key(), "events");
  EXPECT_NE(std::string(e.what()).find("expected a list"), std::string::npos) << e.what();
  // Entries are independent: both are reported, one line each, the first first.
  e = error_of("two.yaml", scenario({"{at: -1s, host: us-east-0, speed: 50%}", "{at: 1s, host: nobody, speed: 50%}"}));
  const std::string what = e.what();
  EXPECT_EQ(e.line(), 15);
  EXPECT_NE(what.find("two.yaml:15: events[0].at: "), std::string::npos) << what;
  EXPECT_NE(what.find("two.yaml:16: events[1].host: unknown host 'nobody'"), std::string::npos) << what;
}

TEST(ScenarioEvents, AFailedPlatformStopsOnlyTheNameChecks) {
  std::string text = scenario({"{at: -1s, host: nobody, speed: 50%}", "{at: 1s, host: nobody, speed: 50%}"});
  text.replace(text.find("hosts: 2"), 8, "hosts: 0");
  const std::string what = error_of("platform.yaml", text).what();
  EXPECT_NE(what.find("platform.regions.0.hosts"), std::string::npos) << what;
  EXPECT_NE(what.find("events[0].at"), std::string::npos) << what;  // a value: still checked
  EXPECT_EQ(what.find("unknown host"), std::string::npos) << what;  // a name: a consequence, not reported
}

TEST(ScenarioEvents, ContradictoryOverlapsNameBothEvents) {
  const auto expect_overlap = [](const std::vector<std::string>& events, const std::string& text) {
    const InputError e = error_of("overlap.yaml", scenario(events));
    const std::string what = e.what();
    EXPECT_EQ(e.key(), "events[1]") << what;
    EXPECT_EQ(e.line(), 16) << what;
    EXPECT_NE(what.find("overlap.yaml:16: events[1]: events[1] "), std::string::npos) << what;
    EXPECT_NE(what.find("overlaps events[0] (line 15)"), std::string::npos) << what;
    EXPECT_NE(what.find(text), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  };
  expect_overlap({"{at: 100s, link: {between: [us-east, eu-west]}, bandwidth: 10%, for: 60s}",
                  "{at: 150s, link: {between: [eu-west, us-east]}, bandwidth: 300Mbps, for: 60s}"},
                 "both set the bandwidth of the WAN us-east~eu-west");
  expect_overlap({"{at: 100s, link: {between: [us-east, eu-west]}, latency: 100ms}",  // for good
                  "{at: 1e6s, link: {between: [us-east, eu-west]}, latency: 5ms, bandwidth: 1Gbps, for: 1s}"},
                 "both set the latency of the WAN us-east~eu-west");
  expect_overlap({"{at: 100s, link: {host: us-east-0}, latency: 100ms, for: 60s}",
                  "{at: 100s, link: {host: us-east-0}, down: 10s}"},
                 "both set the latency of host us-east-0's link");
  expect_overlap({"{at: 100s, host: us-east-0, speed: 50%, for: 60s}", "{at: 159s, host: us-east-0, speed: 70%}"},
                 "both set the speed of host us-east-0");
  expect_overlap(
      {"{at: 100s, host: us-east-0, fail: true, restart: 1s}", "{at: 900s, host: us-east-0, fail: true, restart: 1s}"},
      "both fail host us-east-0");
  // Not contradictory: one after the other, different settings, different targets, a failed host that is back.
  const Scenario s = load_scenario(write_temp(
      "fine.yaml",
      scenario({"{at: 100s, link: {between: [us-east, eu-west]}, bandwidth: 10%, for: 60s}",
                "{at: 160s, link: {between: [us-east, eu-west]}, bandwidth: 20%, for: 60s}",
                "{at: 100s, link: {between: [us-east, eu-west]}, latency: 90ms}",
                "{at: 100s, link: {between: [us-east, ap-south]}, bandwidth: 10%}",
                "{at: 100s, link: {host: us-east-0}, bandwidth: 10%}", "{at: 100s, host: us-east-0, speed: 50%}",
                "{at: 100s, host: us-east-1, fail: true, restart: 1s, for: 100s}",
                "{at: 200s, host: us-east-1, fail: true, restart: 1s}"})));
  EXPECT_EQ(s.events.size(), 8u);
}

TEST(ScenarioEvents, TraceRowsBecomeLinkChanges) {
  const std::string text = with_trace("wan.csv",
                                      "time,target,bandwidth,latency\n"        // 1
                                      "# a comment, then a blank line\n"       // 2
                                      "\n"                                     // 3
                                      "0,us-east~eu-west,50%,\n"               // 4
                                      "10s,eu-west-1,300Mbps,2ms\n"            // 5
                                      "1min, eu-west ~ us-east ,1Gbps,40ms\n"  // 6
                                      "70,us-east~eu-west,,90ms\n",            // 7
                                      {"{at: 5s, host: us-east-0, speed: 50%}"});
  const Scenario s = load_scenario(write_temp("trace.yaml", text));
  ASSERT_EQ(s.events.size(), 5u);
  const EventSpec& first = s.events[0];
  EXPECT_EQ(first.kind, EventSpec::Kind::link_change);
  EXPECT_EQ(first.target.kind, EventTarget::Kind::wan_pair);
  EXPECT_EQ(first.target.region_a, 0);
  EXPECT_EQ(first.target.region_b, 1);
  EXPECT_DOUBLE_EQ(first.bandwidth_factor, 0.5);
  EXPECT_LT(first.latency_s, 0);
  EXPECT_DOUBLE_EQ(first.at_s, 0);
  EXPECT_DOUBLE_EQ(first.duration_s, 60);  // until the pair's next row
  EXPECT_EQ(first.origin, "traces/wan.csv row 1");
  EXPECT_EQ(first.line, 4);
  EXPECT_EQ(s.events[1].origin, "events[1]");  // 5 s
  const EventSpec& nic = s.events[2];
  EXPECT_EQ(nic.target.kind, EventTarget::Kind::host_link);
  EXPECT_EQ(nic.target.host, 3);
  EXPECT_DOUBLE_EQ(nic.bandwidth_Bps, 300e6 / 8);
  EXPECT_DOUBLE_EQ(nic.latency_s, 0.002);
  EXPECT_EQ(nic.duration_s, kInf);  // its target's last row
  EXPECT_EQ(nic.origin, "traces/wan.csv row 2");
  EXPECT_DOUBLE_EQ(s.events[3].at_s, 60);
  EXPECT_DOUBLE_EQ(s.events[3].duration_s, 10);
  EXPECT_DOUBLE_EQ(s.events[3].bandwidth_Bps, 1.25e8);
  const EventSpec& last = s.events[4];
  EXPECT_DOUBLE_EQ(last.bandwidth_factor, 0);  // empty: unchanged
  EXPECT_DOUBLE_EQ(last.bandwidth_Bps, 0);
  EXPECT_DOUBLE_EQ(last.latency_s, 0.09);
  EXPECT_EQ(last.duration_s, kInf);
  EXPECT_EQ(last.line, 7);
  // Three columns.
  const Scenario three = load_scenario(
      write_temp("three.yaml",
                 with_trace("three.csv", "time,target,bandwidth\n0,ap-south~us-east,10%\n5,ap-south~us-east,20%\n")));
  ASSERT_EQ(three.events.size(), 2u);
  EXPECT_EQ(three.events[0].target.region_a, 0);
  EXPECT_EQ(three.events[0].target.region_b, 2);
  EXPECT_DOUBLE_EQ(three.events[0].duration_s, 5);
  // A spreadsheet's export: a byte-order mark and CRLF line ends.
  const Scenario excel = load_scenario(
      write_temp("excel.yaml", with_trace("excel.csv", "\xEF\xBB\xBFtime,target,bandwidth\r\n0,us-east-0,10%\r\n")));
  ASSERT_EQ(excel.events.size(), 1u);
  EXPECT_EQ(excel.events[0].target.kind, EventTarget::Kind::host_link);
  EXPECT_DOUBLE_EQ(excel.events[0].bandwidth_factor, 0.1);
}

TEST(ScenarioEvents, BadTraceRowsNameTheCsvFileAndLine) {
  const auto expect_bad_row = [](const std::string& csv, int line, const std::string& text) {
    const InputError e = error_of("scen.yaml", with_trace("bad.csv", csv));
    const std::string what = e.what();
    EXPECT_NE(e.file().find("traces/bad.csv"), std::string::npos) << what;
    EXPECT_EQ(e.line(), line) << what;
    EXPECT_EQ(e.key(), "events[0].trace") << what;
    EXPECT_NE(what.find("bad.csv:" + std::to_string(line) + ": events[0].trace: "), std::string::npos) << what;
    EXPECT_NE(what.find(text), std::string::npos) << what;
    EXPECT_NE(what.find("(trace of events[0], "), std::string::npos) << what;  // and the scenario's entry
    EXPECT_NE(what.find("scen.yaml:15)"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  };
  const std::string h = "time,target,bandwidth\n";
  expect_bad_row("time,target,bw\n0,us-east~eu-west,10%\n", 1, "expected the header time,target,bandwidth");
  expect_bad_row("", 1, "empty trace");
  expect_bad_row(h, 1, "no rows");
  expect_bad_row(h + "0,us-east~eu-west,10%,5ms\n", 2, "expected 3 comma-separated values");
  expect_bad_row(h + "0,us-east~eu-west\n", 2, "expected 3 comma-separated values");
  expect_bad_row(h + "abc,us-east~eu-west,10%\n", 2, "time: 'abc' is not a time");
  expect_bad_row(h + "-1,us-east~eu-west,10%\n", 2, "time: '-1' is not a time (negative)");
  expect_bad_row(h + "0,us-east~eu-wst,10%\n", 2, "target: unknown region 'eu-wst' (did you mean 'eu-west'?)");
  expect_bad_row(h + "0,us-east~us-east,10%\n", 2, "target: a WAN pair needs two different regions");
  expect_bad_row(h + "0,us-east-9,10%\n", 2, "target: unknown host 'us-east-9'");
  expect_bad_row(h + "0,us-east~eu-west,lots\n", 2, "bandwidth: 'lots' is not a bandwidth");
  expect_bad_row(h + "0,us-east~eu-west,\n", 2, "bandwidth: expected a bandwidth");
  expect_bad_row(h + "0,us-east~eu-west,0%\n", 2, "bandwidth: '0%' is out of range");
  expect_bad_row("time,target,bandwidth,latency\n0,us-east~eu-west,10%,20s\n", 2, "latency: '20s' is out of range");
  expect_bad_row(h + "10,us-east~eu-west,10%\n5,us-east-0,10%\n10,eu-west~us-east,20%\n", 4,
                 "time: '10' is not after the previous row of eu-west~us-east (traces/bad.csv row 1, line 2");
  // A trace row that overlaps an event written in the scenario: reported at the later one, the CSV row.
  const InputError e =
      error_of("scen.yaml", with_trace("ov.csv", h + "0,us-east~eu-west,10%\n100,us-east~eu-west,20%\n",
                                       {"{at: 30s, link: {between: [us-east, eu-west]}, bandwidth: 50%, for: 200s}"}));
  const std::string what = e.what();
  EXPECT_EQ(e.line(), 3) << what;
  EXPECT_NE(what.find("ov.csv:3: events[0].trace: traces/ov.csv row 2 [100 s, for good) overlaps events[1] (line 16)"),
            std::string::npos)
      << what;
  EXPECT_NE(what.find("scen.yaml"), std::string::npos) << what;
}

TEST(ScenarioEvents, NotOnXmlPlatformsNorWithDiloco) {
  const std::string xml_text =
      "platform:\n"                                            // 1
      "  simgrid:\n"                                           // 2
      "    file: p.xml\n"                                      // 3
      "    gpus: {default: {count: 1, gpu: A100-80GB}}\n"      // 4
      "job: {model: {preset: bert-large}, global_batch: 8}\n"  // 5
      "events:\n"                                              // 6
      "  - {at: 1s, host: x, speed: 50%}\n";                   // 7
  write_temp("p.xml", "<platform/>\n");
  const XmlPlatformDescriber describe = [](const SimgridXmlOptions& o) {
    PlatformSpec p;
    p.regions = {"zone"};
    HostSpec h;
    h.name = "x";
    h.gpu = o.default_gpus.gpu;
    h.intra_link = o.intra_host;
    p.hosts = {h};
    p.wan = {{LinkSpec{}}};
    p.simgrid_xml = o.file;
    return p;
  };
  try {
    load_scenario(write_temp("xml.yaml", xml_text), {}, describe);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "events");
    EXPECT_EQ(e.line(), 7);
    EXPECT_NE(std::string(e.what()).find("events are not supported on SimGrid XML platforms"), std::string::npos)
        << e.what();
  }
  const InputError d = error_of(
      "diloco.yaml", scenario({"{at: 1s, host: us-east-0, speed: 50%}"}, "",
                              "  sync: {algorithm: diloco, inner_steps: 10}\n"));  // line 14; events: 15, entry 16
  EXPECT_EQ(d.key(), "events") << d.what();
  EXPECT_EQ(d.line(), 16) << d.what();
  EXPECT_NE(std::string(d.what()).find("not supported yet with job.sync.algorithm: diloco"), std::string::npos)
      << d.what();
}

TEST(ScenarioEvents, OverridesReachEvents) {
  const std::string path = write_temp("set.yaml", scenario({"{at: 10s, host: us-east-0, speed: 50%}"}));
  const Scenario s = load_scenario(path, {{"events.0.at", "30s"}, {"events.0.speed", "25%"}});
  ASSERT_EQ(s.events.size(), 1u);
  EXPECT_DOUBLE_EQ(s.events[0].at_s, 30);
  EXPECT_DOUBLE_EQ(s.events[0].speed_factor, 0.25);
  // A whole list from --set, on a scenario without events.
  const Scenario all = load_scenario(write_temp("none.yaml", scenario({})),
                                     {{"events", "[{at: 1s, link: {host: us-east-0}, down: 5s}]"}});
  ASSERT_EQ(all.events.size(), 1u);
  EXPECT_EQ(all.events[0].kind, EventSpec::Kind::link_down);
  // A bad overridden value: its key, no file line (the file does not hold the value) and the override named.
  try {
    load_scenario(path, {{"events.0.at", "-1s"}});
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "events[0].at") << e.what();
    EXPECT_EQ(e.line(), 0) << e.what();
    EXPECT_NE(std::string(e.what()).find("(value from --set events.0.at=-1s)"), std::string::npos) << e.what();
  }
}

TEST(ScenarioEvents, HostFailureWithoutCheckpointsIsAllowed) {
  const Scenario s =
      load_scenario(write_temp("nockpt.yaml", scenario({"{at: 10s, host: us-east-0, fail: true, restart: 60s}"})));
  ASSERT_EQ(s.events.size(), 1u);
  EXPECT_EQ(s.only_job().checkpoint.every, 0);
}

TEST(ScenarioCheckpoint, ReadInJobAndJobsAndOverridable) {
  const Scenario s = load_scenario(write_temp("ckpt.yaml", scenario({}, "", "  checkpoint: {every: 50, cost: 20s}\n")));
  EXPECT_EQ(s.only_job().checkpoint.every, 50);
  EXPECT_DOUBLE_EQ(s.only_job().checkpoint.cost_s, 20);
  const Scenario free = load_scenario(write_temp("free.yaml", scenario({}, "", "  checkpoint: {every: 3}\n")));
  EXPECT_EQ(free.only_job().checkpoint.every, 3);
  EXPECT_DOUBLE_EQ(free.only_job().checkpoint.cost_s, 0);
  // --set reaches it like any job key, also on a scenario without one.
  const std::string path = write_temp("plain.yaml", scenario({}));
  const Scenario o = load_scenario(path, {{"job.checkpoint.every", "10"}});
  EXPECT_EQ(o.only_job().checkpoint.every, 10);
  const Scenario oc = load_scenario(path, {{"job.checkpoint", "{every: 7, cost: 1min}"}});
  EXPECT_EQ(oc.only_job().checkpoint.every, 7);
  EXPECT_DOUBLE_EQ(oc.only_job().checkpoint.cost_s, 60);
  try {
    load_scenario(path, {{"job.checkpoint.every", "0"}});
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "job.checkpoint.every");
    EXPECT_NE(std::string(e.what()).find("--set job.checkpoint.every=0"), std::string::npos) << e.what();
  }
  // jobs: a per-job key.
  const std::string jobs =
      "platform:\n"
      "  regions: [{name: r, hosts: 4, gpus_per_host: 1, gpu: A100-80GB}]\n"
      "jobs:\n"
      "  - {name: a, model: {preset: bert-large}, global_batch: 8, parallelism: {dp: 2}}\n"
      "  - {name: b, model: {preset: bert-large}, global_batch: 8, parallelism: {dp: 2},\n"
      "     checkpoint: {every: 5, cost: 2s}}\n";
  const Scenario j = load_scenario(write_temp("jobs.yaml", jobs));
  EXPECT_EQ(j.jobs[0].checkpoint.every, 0);
  EXPECT_EQ(j.jobs[1].checkpoint.every, 5);
  EXPECT_DOUBLE_EQ(j.jobs[1].checkpoint.cost_s, 2);
  const Scenario jo = load_scenario(write_temp("jobs.yaml", jobs), {{"jobs.a.checkpoint.every", "4"}});
  EXPECT_EQ(jo.jobs[0].checkpoint.every, 4);
  std::string bad = jobs;
  bad.replace(bad.find("every: 5"), 8, "every: x");
  const InputError e = error_of("jobs-bad.yaml", bad);
  EXPECT_EQ(e.key(), "jobs[1].checkpoint.every") << e.what();
  EXPECT_EQ(e.line(), 6) << e.what();
}

TEST(ScenarioCheckpoint, BadValues) {
  const auto expect_bad = [](const std::string& value, const std::string& key, const std::string& text) {
    const InputError e = error_of("ck.yaml", scenario({}, "", "  checkpoint: " + value + "\n"));
    const std::string what = e.what();
    EXPECT_EQ(e.key(), key) << what;
    EXPECT_EQ(e.line(), 14) << what;
    EXPECT_NE(what.find(text), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  };
  expect_bad("{every: 0, cost: 1s}", "job.checkpoint.every", "expected an integer in [1, ");
  expect_bad("{cost: 1s}", "job.checkpoint.every", "missing key 'every'");
  expect_bad("{every: 5, cost: -1s}", "job.checkpoint.cost", "negative");
  expect_bad("{every: 5, costs: 1s}", "job.checkpoint.costs", "did you mean 'cost'?");
  expect_bad("50", "job.checkpoint", "expected a map");
}

TEST(ScenarioRobust, ReadWithDefaults) {
  const Scenario s =
      load_scenario(write_temp("robust.yaml", scenario({}, "robust: {pair_probability: 0.1, bandwidth: 10%}\n")));
  EXPECT_DOUBLE_EQ(s.robust.pair_probability, 0.1);
  EXPECT_DOUBLE_EQ(s.robust.bandwidth_factor, 0.1);
  EXPECT_EQ(s.robust.samples, 16);
  EXPECT_EQ(s.robust.seed, 5u);  // the scenario's seed
  const Scenario t = load_scenario(write_temp(
      "robust2.yaml", scenario({}, "robust: {pair_probability: 1, bandwidth: 100%, samples: 3, seed: 7}\n")));
  EXPECT_DOUBLE_EQ(t.robust.pair_probability, 1);
  EXPECT_DOUBLE_EQ(t.robust.bandwidth_factor, 1);
  EXPECT_EQ(t.robust.samples, 3);
  EXPECT_EQ(t.robust.seed, 7u);
  const Scenario o =
      load_scenario(write_temp("robust.yaml", scenario({}, "robust: {pair_probability: 0.1, bandwidth: 10%}\n")),
                    {{"robust.samples", "4"}});
  EXPECT_EQ(o.robust.samples, 4);
}

TEST(ScenarioRobust, BadValues) {
  const auto expect_bad = [](const std::string& value, const std::string& key, const std::string& text) {
    const InputError e = error_of("rb.yaml", scenario({}, "robust: " + value + "\n"));
    const std::string what = e.what();
    EXPECT_EQ(e.key(), key) << what;
    EXPECT_EQ(e.line(), 14) << what;
    EXPECT_NE(what.find(text), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  };
  expect_bad("{pair_probability: 1.5, bandwidth: 10%}", "robust.pair_probability", "expected a probability in [0, 1]");
  expect_bad("{pair_probability: -0.1, bandwidth: 10%}", "robust.pair_probability", "in [0, 1]");
  expect_bad("{bandwidth: 10%}", "robust.pair_probability", "missing key 'pair_probability'");
  expect_bad("{pair_probability: 0.1}", "robust.bandwidth", "missing key 'bandwidth'");
  expect_bad("{pair_probability: 0.1, bandwidth: 0%}", "robust.bandwidth", "out of range");
  expect_bad("{pair_probability: 0.1, bandwidth: 150%}", "robust.bandwidth", "in [0.01%, 100%]");
  expect_bad("{pair_probability: 0.1, bandwidth: 1Gbps}", "robust.bandwidth", "not a percentage");
  expect_bad("{pair_probability: 0.1, bandwidth: 10%, samples: 0}", "robust.samples", "expected an integer in [1, ");
  expect_bad("{pair_probability: 0.1, bandwidth: 10%, seed: -1}", "robust.seed", "expected an integer >= 0");
  expect_bad("{pair_probability: 0.1, bandwidth: 10%, sample: 3}", "robust.sample", "did you mean 'samples'?");
}

TEST(ScenarioEvents, HostFailuresWithSeveralJobsLoad) {
  // The failure run restarts the jobs a failed host holds ranks of (sim/engine/failure_run.hpp).
  const std::string text =
      "platform:\n"
      "  regions:\n"
      "    - {name: a, hosts: 4, gpus_per_host: 1, gpu: A100-80GB}\n"
      "jobs:\n"
      "  - {name: x, model: {preset: bert-large}, global_batch: 2, parallelism: {dp: 2}}\n"
      "  - {name: y, model: {preset: bert-large}, global_batch: 2, parallelism: {dp: 2}}\n"
      "events:\n"
      "  - {at: 1s, host: a-0, fail: true, restart: 1s}\n";
  const Scenario s = load_scenario(write_temp("jobs_fail.yaml", text));
  ASSERT_EQ(s.events.size(), 1u);
  EXPECT_EQ(s.events[0].kind, EventSpec::Kind::host_fail);
  EXPECT_EQ(s.jobs.size(), 2u);
}
