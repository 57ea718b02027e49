// WAN capacity models (PlatformSpec::wan_capacity) in SimGrid: N hosts of region 0 each send one large message to
// hosts of region 1 at the same instant over the platform sg_build_platform builds, with plain S4U mailboxes (no
// hulk endpoint or collective code, so the test holds wherever the engine puts the route latency). Expectations come
// from the RouteModel: route latency L and WAN bandwidth B. One platform per test (one engine per process).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/engine/engine_startup.hpp"
#include "sim/engine/sg_platform.hpp"
#include "sim/topology/route_model.hpp"
#include "sim_fixtures.hpp"

namespace hulk {
namespace {

namespace sg4 = simgrid::s4u;

constexpr int kSenders = 4;
constexpr double kWanBps = 1.25e8;   // 1 Gbit/s
constexpr double kWanLat = 20e-3;
constexpr double kNicLat = 50e-6;
constexpr double kBytes = 1e8;       // 0.8 s alone on the WAN: latency is ~2.5% of the time

// Sender i (host i of region 0) puts kBytes to receiver dst[i]; returns every receiver's completion time.
std::vector<double> run_transfers(const PlatformSpec& platform, const std::vector<int>& dst) {
  const auto engine = start_engine(NetworkSpec{});
  const SgPlatform sg = sg_build_platform(platform, hulk_test::small_job(1, 1, 1, 1, 1));
  std::vector<double> done(dst.size(), -1.0);
  for (size_t i = 0; i < dst.size(); ++i) {
    const std::string box = "wan" + std::to_string(i);
    sg4::Actor::create("send" + std::to_string(i), sg.hosts[i], [box] {
      static char payload;
      sg4::Mailbox::by_name(box)->put(&payload, static_cast<uint64_t>(kBytes));
    });
    sg4::Actor::create("recv" + std::to_string(i), sg.hosts[dst[i]], [box, i, &done] {
      sg4::Mailbox::by_name(box)->get<char>();
      done[i] = sg4::Engine::get_clock();
    });
  }
  engine->run();
  return done;
}

// 2 regions x kSenders hosts; NICs at nic_Bps.
PlatformSpec platform(WanCapacity capacity, double nic_Bps) {
  PlatformSpec p = hulk_test::grid_platform(2, kSenders, 1, nic_Bps, kNicLat, kWanBps, kWanLat);
  p.wan_capacity = capacity;
  return p;
}

// Host i of region 0 -> host i of region 1.
std::vector<int> distinct_receivers() {
  std::vector<int> dst;
  for (int i = 0; i < kSenders; ++i) dst.push_back(kSenders + i);
  return dst;
}

// NICs 100x the WAN: the WAN model alone decides. `host`: every sender has its own cap B.
TEST(WanCapacity, HostGivesEverySenderTheFullWanBandwidth) {
  const PlatformSpec p = platform(WanCapacity::host, 100 * kWanBps);
  const RouteModel model(p);
  const std::vector<double> done = run_transfers(p, distinct_receivers());
  for (int i = 0; i < kSenders; ++i) {
    const Route& r = model.route(i, kSenders + i);
    ASSERT_EQ(r.bandwidth_Bps, kWanBps);
    const double expected = r.latency_s + kBytes / r.bandwidth_Bps;
    EXPECT_NEAR(done[i] / expected, 1.0, 1e-3) << "sender " << i << ": " << done[i] << " vs " << expected;
  }
}

// Same transfers, `pair`: the kSenders flows share the region pair's one WAN link, B / N each.
TEST(WanCapacity, PairSharesTheWanBetweenAllSenders) {
  const PlatformSpec p = platform(WanCapacity::pair, 100 * kWanBps);
  const RouteModel model(p);
  const std::vector<double> done = run_transfers(p, distinct_receivers());
  for (int i = 0; i < kSenders; ++i) {
    const Route& r = model.route(i, kSenders + i);
    ASSERT_EQ(r.bandwidth_Bps, kWanBps);
    const double expected = r.latency_s + kSenders * kBytes / r.bandwidth_Bps;
    EXPECT_NEAR(done[i] / expected, 1.0, 1e-3) << "sender " << i << ": " << done[i] << " vs " << expected;
  }
}

// `host` caps senders only (egress shaping): kSenders hosts into ONE receiver whose NIC is 2B get 2B together, not
// B (a receiving-side cap) and not N * B (no NIC).
TEST(WanCapacity, HostLeavesTheReceiverToItsNic) {
  const double nic_Bps = 2 * kWanBps;
  const PlatformSpec p = platform(WanCapacity::host, nic_Bps);
  const RouteModel model(p);
  const std::vector<int> dst(kSenders, kSenders);
  const std::vector<double> done = run_transfers(p, dst);
  for (int i = 0; i < kSenders; ++i) {
    const double expected = model.route(i, kSenders).latency_s + kSenders * kBytes / nic_Bps;
    EXPECT_NEAR(done[i] / expected, 1.0, 1e-3) << "sender " << i << ": " << done[i] << " vs " << expected;
  }
}

// Under `host` every inter-region route crosses one per-host egress link, and the engine builds them (that the
// engine's routes equal the model's, names, bandwidths and latencies, is RouteModelEngine.HostWanCapacityPlatform).
TEST(WanCapacity, HostRoutesInTheEngineAreTheModels) {
  PlatformSpec p = platform(WanCapacity::host, 100 * kWanBps);
  p.host_pair_latency_s[{0, kSenders + 1}] = 0.15;
  const auto engine = start_engine(NetworkSpec{});
  const SgPlatform sg = sg_build_platform(p, hulk_test::small_job(1, 1, 1, 1, 1));
  const RouteModel model(p);
  int wanout = 0;
  for (int a = 0; a < model.hosts(); ++a)
    for (int b = 0; b < model.hosts(); ++b) {
      const Route& r = model.route(a, b);
      for (int i = 0; i < r.n_path; ++i) wanout += model.link(r.path[i]).kind == LinkKind::wan_host;
    }
  EXPECT_EQ(wanout, 2 * kSenders * kSenders);  // every inter-region route crosses one
  EXPECT_EQ(sg4::Engine::get_instance()->link_by_name_or_null("wanout:r0h0>region1") != nullptr, true);
}

}  // namespace
}  // namespace hulk
