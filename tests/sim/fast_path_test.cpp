// The engine's fast paths that replace SimGrid messages without changing results, against the per-message path
// they replace: the iteration tail's gradient-norm all-reduce of empty messages in closed form
// (sim/engine/latency_ring.hpp, SimOptions::tail_closed_form). The same scenario simulated both ways, each in its own
// child process (one engine per process), must give the same result.json (every number within 1e-9 relative or
// 1e-8 absolute, see close(); the rest identical) and the same comm.csv rows (times likewise). Each targeted case also checks whether
// the fast path was taken, so a case that silently fell back to messages cannot pass as agreement. The bundled
// scenarios run under greedy, round-robin and random placement.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "sim/core/jobs.hpp"
#include "sim/core/subprocess.hpp"
#include "sim/engine/latency_ring.hpp"
#include "sim/engine/private_ring.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/methods/method_registry.hpp"
#include "sim/methods/scenario_loading.hpp"
#include "sim/place/placer.hpp"
#include "sim/report/outputs.hpp"
#include "sim_fixtures.hpp"

namespace hulk {
namespace {

struct Run {
  nlohmann::json result;
  std::string comm_csv;
  long long fast_messages = 0;  ///< messages the fast paths kept off SimGrid
  long long messages = 0;
};

Run run(const Scenario& s, const Placement& placement, bool fast, bool record_events) {
  const nlohmann::json out = run_in_child([&] {
    SimOptions o;
    o.tail_closed_form = fast;
    o.record_events = record_events;
    o.record_spans = false;
    const SimResult r = simulate(s, placement, o);
    return nlohmann::json{{"result", result_to_json(s, r)},
                          {"comm_csv", record_events ? comm_csv(s, r) : std::string()},
                          {"fast", r.tail_closed_form_messages},
                          {"messages", r.messages}};
  });
  return Run{out["result"], out["comm_csv"].get<std::string>(), out["fast"].get<long long>(),
             out["messages"].get<long long>()};
}

// Within 1e-9 relative, or 1e-8 absolute: SimGrid takes events less than its timing precision apart (1e-9 s,
// "precision/timing") as one, so removing messages, even empty ones, can move another event by such a step (seen:
// an entry into the gradient norm's ring 1e-9 s apart).
bool close(double a, double b) {
  return std::abs(a - b) <= std::max(1e-9 * std::max(std::abs(a), std::abs(b)), 1e-8);
}

// Numbers within 1e-9 relative, everything else identical; `where` names the first difference.
void expect_same_json(const nlohmann::json& a, const nlohmann::json& b, const std::string& where) {
  if (a.is_number_float() || b.is_number_float()) {
    ASSERT_TRUE(a.is_number() && b.is_number()) << where;
    EXPECT_TRUE(close(a.get<double>(), b.get<double>())) << where << ": " << a << " vs " << b;
    return;
  }
  ASSERT_EQ(a.type(), b.type()) << where;
  if (a.is_object()) {
    ASSERT_EQ(a.size(), b.size()) << where;
    for (auto it = a.begin(); it != a.end(); ++it) {
      ASSERT_TRUE(b.contains(it.key())) << where << "." << it.key();
      expect_same_json(it.value(), b[it.key()], where + "." + it.key());
    }
  } else if (a.is_array()) {
    ASSERT_EQ(a.size(), b.size()) << where;
    for (std::size_t i = 0; i < a.size(); ++i) expect_same_json(a[i], b[i], where + "[" + std::to_string(i) + "]");
  } else {
    EXPECT_EQ(a, b) << where;
  }
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// One comm.csv row: everything but the times, and the times (start_s, end_s: the last two columns).
struct Row {
  std::string key;
  double start_s = 0, end_s = 0;
  bool operator<(const Row& o) const {
    return std::tie(key, start_s, end_s) < std::tie(o.key, o.start_s, o.end_s);
  }
};

std::vector<Row> rows(const std::string& csv) {
  std::vector<Row> out;
  for (const std::string& line : lines(csv)) {
    const std::size_t e = line.rfind(','), st = e == std::string::npos ? e : line.rfind(',', e - 1);
    if (st == std::string::npos) continue;
    if (line.compare(st + 1, 7, "start_s") == 0) continue;  // the header
    out.push_back(Row{line.substr(0, st), std::stod(line.substr(st + 1, e - st - 1)), std::stod(line.substr(e + 1))});
  }
  // Rows are sorted by time: times equal up to rounding may come in either order, so compare them as sets.
  std::sort(out.begin(), out.end());
  return out;
}

// comm.csv: the same rows, their times close().
void expect_same_comm_csv(const std::string& a, const std::string& b) {
  const std::vector<Row> ra = rows(a), rb = rows(b);
  ASSERT_EQ(ra.size(), rb.size());
  int reported = 0;
  for (std::size_t i = 0; i < ra.size() && reported < 5; ++i) {
    const bool same = ra[i].key == rb[i].key && close(ra[i].start_s, rb[i].start_s) && close(ra[i].end_s, rb[i].end_s);
    if (same) continue;
    ++reported;
    ADD_FAILURE() << "comm.csv row: " << ra[i].key << "," << ra[i].start_s << "," << ra[i].end_s << "\n    vs " << rb[i].key
                  << "," << rb[i].start_s << "," << rb[i].end_s;
  }
}

// Both runs agree; returns the messages the fast run kept off SimGrid.
long long expect_agreement(const Scenario& s, const Placement& placement, bool record_events = true) {
  const Run slow = run(s, placement, false, record_events), fast = run(s, placement, true, record_events);
  EXPECT_EQ(slow.fast_messages, 0);
  const auto time_s = [](const nlohmann::json& r) {  // several jobs: no iteration time of their own
    const auto t = r.find("iteration_time_s");
    return t != r.end() && t->is_number() ? t->get<double>() : std::nan("");
  };
  std::printf("%s: %lld messages, %lld of them off SimGrid; iteration time %.15g s (per message) %.15g s (fast)\n",
              s.name.c_str(), fast.messages, fast.fast_messages, time_s(slow.result), time_s(fast.result));
  expect_same_json(fast.result, slow.result, "result");
  expect_same_comm_csv(fast.comm_csv, slow.comm_csv);
  if (record_events) EXPECT_GT(slow.comm_csv.size(), 100u);
  return fast.fast_messages;
}

Scenario base(int regions, int hosts, int gpus, int dp, int tp, int pp) {
  PlatformSpec p = hulk_test::grid_platform(regions, hosts, gpus, 12.5e9, 5e-6, 1.25e9, 20e-3);
  GpuSpec gpu = hulk_test::infinite_gpu();
  gpu.fp16_flops = 50e12;  // compute comparable to the transfers, so members enter the tail at different times
  for (auto& h : p.hosts) h.gpu = gpu;
  Scenario s = hulk_test::scenario(p, hulk_test::small_job(dp, tp, pp, 2 * pp, 4));
  s.network.model = "CM02";
  s.only_job().step_costs = true;
  return s;
}

Placement packed(const Scenario& s, int per_host) {
  Placement p;
  for (int r = 0; r < s.only_job().par.ranks(); ++r) p.gpu_of_rank.push_back({r / per_host, r % per_host});
  return p;
}

Placement spread(const Scenario& s) {
  Placement p;
  const int hosts = static_cast<int>(s.platform.hosts.size());
  for (int r = 0; r < s.only_job().par.ranks(); ++r) p.gpu_of_rank.push_back({r % hosts, r / hosts});
  return p;
}

TEST(ZeroByteRing, RoundsAsSimGridDoes) {
  EXPECT_FALSE(zero_byte_ring(4.0, 1));
  EXPECT_FALSE(zero_byte_ring(4.0, 8));  // 0.5 byte: llround gives 1
  EXPECT_TRUE(zero_byte_ring(4.0, 9));
  EXPECT_TRUE(zero_byte_ring(4.0, 64));
}

TEST(RingHopTimeline, EmptyTransfersTakeTheReceiversLatencyPerStep) {
  // An empty transfer leaves at once (its channel is free again) and arrives one receiver latency later, so every
  // step of a ring whose members enter together takes that latency; a member entering late delays everyone.
  const std::vector<RingHop> hops(3, RingHop{0.0, 0.5});
  int transfers = 0;
  const std::vector<double> exit = ring_hop_timeline({0.0, 0.0, 0.0}, 4, hops, 1, [&](const RingStepTransfer& x) {
    ++transfers;
    EXPECT_DOUBLE_EQ(x.end_s, x.post_s + 0.5);
  });
  EXPECT_EQ(transfers, 3 * 4);
  for (double e : exit) EXPECT_DOUBLE_EQ(e, 4 * 0.5);
  for (double e : ring_hop_timeline({0.0, 1.0, 0.0}, 4, hops, 1, nullptr)) EXPECT_GE(e, 1.0 + 2 * 0.5);
}

TEST(TailClosedForm, PackedReplicasIntraAndInterHostHops) {
  // tp 4 x pp 4: the gradient norm's ring of 16 members, 4 per host: intra-host hops and WAN hops.
  Scenario s = base(2, 4, 4, /*dp*/ 2, /*tp*/ 4, /*pp*/ 4);
  s.name = "packed";
  EXPECT_GT(expect_agreement(s, packed(s, 4)), 0);
}

TEST(TailClosedForm, SpreadReplicasShareLinksWithDataParallelTraffic) {
  // Round-robin over the hosts: every hop crosses a NIC (and the WAN) while the other replicas' data-parallel and
  // embedding all-reduces are on the same links.
  Scenario s = base(3, 2, 4, /*dp*/ 2, /*tp*/ 2, /*pp*/ 6);
  s.name = "spread";
  s.only_job().collective = "hierarchical";
  s.network.channels_per_peer = 2;
  EXPECT_GT(expect_agreement(s, spread(s)), 0);
}

TEST(TailClosedForm, NotTakenWhenRingStepsCarryBytes) {
  // tp 2 x pp 4: 8 members, 0.5 byte per step, which SimGrid sends as 1 byte.
  Scenario s = base(2, 2, 4, /*dp*/ 2, /*tp*/ 2, /*pp*/ 4);
  s.name = "eight-members";
  EXPECT_EQ(expect_agreement(s, spread(s)), 0);
}

TEST(TailClosedForm, NotTakenWithScenarioEvents) {
  Scenario s = base(2, 4, 4, /*dp*/ 2, /*tp*/ 4, /*pp*/ 4);
  s.name = "events";
  EventSpec e;  // the WAN's latency doubles from 1 ms on: routes' latencies change during the run
  e.kind = EventSpec::Kind::link_change;
  e.target.kind = EventTarget::Kind::wan_pair;
  e.target.region_a = 0;
  e.target.region_b = 1;
  e.at_s = 1e-3;
  e.duration_s = 1.0;
  e.latency_s = 40e-3;
  s.events.push_back(e);
  EXPECT_EQ(expect_agreement(s, packed(s, 4)), 0);
}

// The bundled scenarios (those with a fixed layout) under each placement.
struct Bundled {
  std::string file;
  std::string placement;
};

class BundledFastPath : public ::testing::TestWithParam<Bundled> {};

TEST_P(BundledFastPath, SameResults) {
  const Bundled& b = GetParam();
  Scenario s = load_scenario_file(std::string(HULK_SOURCE_DIR) + "/" + b.file);
  s.name = b.file + " " + b.placement;
  const Placement placement = make_placer(b.placement)->place(s);
  const bool small = total_ranks(s) <= 64;  // comm.csv of the larger runs is hundreds of thousands of rows
  expect_agreement(s, placement, small);
}

std::vector<Bundled> bundled() {
  std::vector<Bundled> out;
  for (const char* file :
       {"scenarios/examples/diloco-three-regions.yaml", "scenarios/examples/diloco.yaml",
        "scenarios/examples/events.yaml", "scenarios/examples/hulk-47.yaml", "scenarios/examples/quickstart.yaml",
        "scenarios/examples/robust.yaml", "scenarios/examples/simgrid-xml.yaml",
        "scenarios/examples/three-region-pcie.yaml", "scenarios/examples/two-jobs.yaml",
        "scenarios/examples/two-region-gpt.yaml", "scenarios/scale/scale-64.yaml",
        "scenarios/examples/big-1024.yaml"})
    for (const char* placement : {"greedy", "round-robin", "random"})
      // 1,024 GPUs: greedy only. Round-robin takes minutes per message-by-message run on a 2-core machine, random
      // longer (docs/performance.md); the smaller scenarios cover both placements.
      if (std::string(file).find("big-1024") == std::string::npos || std::string(placement) == "greedy")
        out.push_back({file, placement});
  return out;
}

std::string bundled_name(const ::testing::TestParamInfo<Bundled>& info) {
  std::string name = info.param.file.substr(info.param.file.rfind('/') + 1) + "_" + info.param.placement;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Scenarios, BundledFastPath, ::testing::ValuesIn(bundled()), bundled_name);

}  // namespace
}  // namespace hulk
