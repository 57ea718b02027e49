// A SimGrid fact the engine's ground truth rests on (README "How true are the predictions?"): under CM02, as hulk's
// engine configures it (start_engine), flows on a shared link get shares in inverse proportion to their route
// latency, and a flow of zero latency gets nothing beside one of any latency until that one ends. Under CM02 hulk
// keeps latency only on intra-host links (the rest is added at the receiver), so only those microseconds weigh.
// One engine per process: one TEST each (gtest_discover_tests runs every TEST in its own process).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include <simgrid/s4u.hpp>

#include "sim/engine/engine_startup.hpp"

namespace hulk {
namespace {

namespace sg4 = simgrid::s4u;

/** When two flows of 1e9 bytes started together end: both cross one 1 GB/s link, the first then a link of latency
 *  `latency_a`, the second one of `latency_b` (both far faster than the shared one). */
struct Ends {
  double a = 0, b = 0;
};

Ends two_flows(double latency_a, double latency_b) {
  const auto engine = start_engine(NetworkSpec{});  // CM02, no TCP window: hulk's defaults
  sg4::NetZone* zone = sg4::create_full_zone("z");
  sg4::Host* src_a = zone->create_host("src_a", 1e9);
  sg4::Host* src_b = zone->create_host("src_b", 1e9);
  sg4::Host* dst_a = zone->create_host("dst_a", 1e9);
  sg4::Host* dst_b = zone->create_host("dst_b", 1e9);
  sg4::Link* shared = zone->create_link("shared", 1e9)->set_latency(0);
  sg4::Link* own_a = zone->create_link("own_a", 1e11)->set_latency(latency_a);
  sg4::Link* own_b = zone->create_link("own_b", 1e11)->set_latency(latency_b);
  zone->add_route(src_a->get_netpoint(), dst_a->get_netpoint(), nullptr, nullptr,
                  {sg4::LinkInRoute(shared), sg4::LinkInRoute(own_a)}, false);
  zone->add_route(src_b->get_netpoint(), dst_b->get_netpoint(), nullptr, nullptr,
                  {sg4::LinkInRoute(shared), sg4::LinkInRoute(own_b)}, false);
  zone->seal();
  Ends ends;
  sg4::Actor::create("a", src_a, [&]() {
    sg4::Comm::sendto_async(src_a, dst_a, 1e9)->wait();
    ends.a = sg4::Engine::get_clock();
  });
  sg4::Actor::create("b", src_b, [&]() {
    sg4::Comm::sendto_async(src_b, dst_b, 1e9)->wait();
    ends.b = sg4::Engine::get_clock();
  });
  engine->run();
  std::printf("latencies %g s / %g s: the flows end at %.4f s / %.4f s\n", latency_a, latency_b, ends.a, ends.b);
  return ends;
}

TEST(Cm02Sharing, EqualLatenciesShareEqually) {
  const Ends e = two_flows(2e-6, 2e-6);
  EXPECT_NEAR(e.a, e.b, 1e-6 * e.b);  // together, at the link's speed for both
}

TEST(Cm02Sharing, SharesGoInInverseProportionToLatency) {
  // 1 us against 2 us: 2:1 while both run, so the first has its 1e9 bytes after 1.5e9 bytes went through, the second
  // after 2e9.
  const Ends e = two_flows(1e-6, 2e-6);
  EXPECT_NEAR(e.a / e.b, 0.75, 0.01);
}

TEST(Cm02Sharing, AFlowOfZeroLatencyWaitsForOneOfAnyLatency) {
  // 0 against 1 ns: the second flow has the link alone until it ends, then the first.
  const Ends e = two_flows(0.0, 1e-9);
  EXPECT_NEAR(e.b / e.a, 0.5, 0.01);
}

}  // namespace
}  // namespace hulk
