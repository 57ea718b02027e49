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

// The engine's routes are the model's (names, bandwidths, latencies) under `host`, measured pair latencies included.
TEST(WanCapacity, HostRoutesInTheEngineAreTheModels) {
  PlatformSpec p = platform(WanCapacity::host, 100 * kWanBps);
  p.host_pair_latency_s[{0, kSenders + 1}] = 0.15;
  const auto engine = start_engine(NetworkSpec{});
  const SgPlatform sg = sg_build_platform(p, hulk_test::small_job(1, 1, 1, 1, 1));
  const RouteModel model(p);
  int wanout = 0;
  for (int a = 0; a < model.hosts(); ++a)
    for (int b = 0; b < model.hosts(); ++b) {
      SCOPED_TRACE("route " + std::to_string(a) + " -> " + std::to_string(b));
      std::vector<sg4::Link*> links;
      double latency_s = 0;
      sg.hosts[a]->route_to(sg.hosts[b], links, &latency_s);
      const Route& r = model.route(a, b);
      ASSERT_EQ(static_cast<int>(links.size()), r.n_path);
      for (int i = 0; i < r.n_path; ++i) {
        const ModelLink& l = model.link(r.path[i]);
        const std::string suffix = l.duplex == Duplex::up ? "_UP" : l.duplex == Duplex::down ? "_DOWN" : "";
        EXPECT_EQ(links[i]->get_name(), model.link_name(r.path[i]) + suffix);
        EXPECT_EQ(links[i]->get_bandwidth(), l.bandwidth_Bps);
        EXPECT_EQ(links[i]->get_latency(), l.latency_s);
        if (l.kind == LinkKind::wan_host) ++wanout;
      }
      EXPECT_NEAR(latency_s, r.latency_s, 1e-12 * r.latency_s);
    }
  EXPECT_EQ(wanout, 2 * kSenders * kSenders);  // every inter-region route crosses one
  EXPECT_EQ(sg4::Engine::get_instance()->link_by_name_or_null("wanout:r0h0>region1") != nullptr, true);
}

}  // namespace
}  // namespace hulk
