// Events as link and host change points (sim/topology/event_timeline): which links an event acts on, the latest
// started event wins, down wins over everything, links return to their own values, and a run that resumes later
// (origin) sees only what is still in force.
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "placement_test_platforms.hpp"
#include "sim/topology/event_timeline.hpp"

namespace hulk {
namespace {

using testing::a100;
using testing::make_platform;

constexpr double kInf = std::numeric_limits<double>::infinity();

PlatformSpec three_regions(WanCapacity capacity) {
  PlatformSpec p = make_platform({2, 1, 1}, 1, a100(), {1e9, 1e-4}, {1e8, 0.02}, {100e9, 2e-6});
  p.wan_capacity = capacity;
  return p;
}

EventSpec pair_event(int a, int b, double at, double duration) {
  EventSpec e;
  e.target.kind = EventTarget::Kind::wan_pair;
  e.target.region_a = a;
  e.target.region_b = b;
  e.at_s = at;
  e.duration_s = duration;
  return e;
}

TEST(EventTimeline, PairTargetsThePairsWanLinksOnly) {
  const RouteModel pair_model(three_regions(WanCapacity::pair));
  const std::vector<int> links = event_links(pair_model, pair_event(0, 2, 0, 1).target);
  ASSERT_EQ(links.size(), 2u);  // both halves of wan:0~2
  for (int id : links) EXPECT_EQ(pair_model.link(id).kind, LinkKind::wan);
  // Capacity `host`: every egress cap from region 0 to 2 (hosts 0, 1) and from 2 to 0 (host 3).
  const RouteModel host_model(three_regions(WanCapacity::host));
  const std::vector<int> caps = event_links(host_model, pair_event(0, 2, 0, 1).target);
  ASSERT_EQ(caps.size(), 3u);
  for (int id : caps) EXPECT_EQ(host_model.link(id).kind, LinkKind::wan_host);
}

TEST(EventTimeline, LatestStartedEventWinsAndLinksReturnToTheirOwn) {
  const RouteModel model(three_regions(WanCapacity::pair));
  EventSpec slow = pair_event(0, 1, 10, 20);   // 10..30: 50%
  slow.bandwidth_factor = 0.5;
  EventSpec capped = pair_event(0, 1, 15, 5);  // 15..20: 1 MB/s
  capped.bandwidth_Bps = 1e6;
  const std::vector<LinkChange> changes = link_timeline(model, {slow, capped});
  const int up = event_links(model, slow.target).front();
  std::vector<std::pair<double, double>> of_up;
  for (const LinkChange& c : changes)
    if (c.link == up) of_up.push_back({c.at_s, c.bandwidth_Bps});
  const std::vector<std::pair<double, double>> expected{{10, 0.5e8}, {15, 1e6}, {20, 0.5e8}, {30, 1e8}};
  EXPECT_EQ(of_up, expected);
}

/** The rule stated plainly, for one link: at t, the in-force event that sets the value with the latest `at`, the
 *  last written on a tie (down first, then bandwidth; latency apart); the link's own value when none. */
std::pair<double, double> value_at(const std::vector<EventSpec>& events, double t, double own_bw, double own_lat) {
  const auto in_force = [&](auto sets) {
    int best = -1;
    for (int i = 0; i < static_cast<int>(events.size()); ++i) {
      const EventSpec& e = events[i];
      if (sets(e) && e.at_s <= t && t < e.at_s + e.duration_s && (best < 0 || e.at_s >= events[best].at_s)) best = i;
    }
    return best;
  };
  const int down = in_force([](const EventSpec& e) { return e.kind == EventSpec::Kind::link_down; });
  const int bw = in_force([](const EventSpec& e) {
    return e.kind == EventSpec::Kind::link_change && (e.bandwidth_factor > 0 || e.bandwidth_Bps > 0);
  });
  const int lat =
      in_force([](const EventSpec& e) { return e.kind == EventSpec::Kind::link_change && e.latency_s >= 0; });
  const double b = down >= 0 ? -1 : bw >= 0 ? own_bw * events[bw].bandwidth_factor : own_bw;
  return {b, lat >= 0 ? events[lat].latency_s : own_lat};
}

TEST(EventTimeline, ManyOverlappingEventsFollowTheRuleEverywhere) {
  // 400 random overlapping events on one pair (some for good, some at equal times): the timeline's value at every
  // change and between changes is the rule's (the timeline keeps the events in force in an ordered set).
  const RouteModel model(three_regions(WanCapacity::pair));
  std::mt19937_64 rng(5);
  std::vector<EventSpec> events;
  for (int i = 0; i < 400; ++i) {
    EventSpec e = pair_event(0, 1, static_cast<double>(rng() % 200), rng() % 7 == 0 ? kInf : 1.0 + rng() % 40);
    const int what = static_cast<int>(rng() % 10);
    e.kind = what == 0 ? EventSpec::Kind::link_down : EventSpec::Kind::link_change;
    if (what >= 1 && what <= 6) e.bandwidth_factor = 0.05 * (1 + rng() % 19);
    if (what >= 5) e.latency_s = 1e-3 * (1 + rng() % 100);
    events.push_back(e);
  }
  const int up = event_links(model, events.front().target).front();
  const double own_bw = model.link(up).bandwidth_Bps, own_lat = model.link(up).latency_s;
  std::vector<LinkChange> changes;
  for (const LinkChange& c : link_timeline(model, events))
    if (c.link == up) changes.push_back(c);
  ASSERT_GT(changes.size(), 50u);
  std::pair<double, double> now{own_bw, own_lat};
  std::size_t next = 0;
  for (double t = 0; t < 260; t += 0.5) {
    for (; next < changes.size() && changes[next].at_s <= t; ++next)
      now = {changes[next].bandwidth_Bps, changes[next].latency_s};
    std::pair<double, double> expected = value_at(events, t, own_bw, own_lat);
    if (expected.first < 0) expected.first = now.first < own_bw * 1e-6 ? now.first : -1;  // down: a trickle
    EXPECT_EQ(now, expected) << "t = " << t;
  }
}

TEST(EventTimeline, DownWinsAndLatencyIsItsOwnProperty) {
  const RouteModel model(three_regions(WanCapacity::pair));
  EventSpec down = pair_event(0, 1, 5, 5);
  down.kind = EventSpec::Kind::link_down;
  EventSpec fast = pair_event(0, 1, 6, 1);  // starts later but a down link is down
  fast.bandwidth_factor = 2;
  fast.latency_s = 0.5;
  const std::vector<LinkChange> changes = link_timeline(model, {down, fast});
  const int up = event_links(model, down.target).front();
  std::vector<LinkChange> of_up;
  for (const LinkChange& c : changes)
    if (c.link == up) of_up.push_back(c);
  ASSERT_EQ(of_up.size(), 4u);
  EXPECT_EQ(of_up[0].bandwidth_Bps, kDownBandwidthBps);
  EXPECT_EQ(of_up[1].at_s, 6);
  EXPECT_EQ(of_up[1].bandwidth_Bps, kDownBandwidthBps);
  EXPECT_EQ(of_up[1].latency_s, 0.5);
  EXPECT_EQ(of_up[2].at_s, 7);
  EXPECT_EQ(of_up[2].latency_s, 0.02);
  EXPECT_EQ(of_up[3].at_s, 10);
  EXPECT_EQ(of_up[3].bandwidth_Bps, 1e8);
}

TEST(EventTimeline, OriginShiftsTimesAndDropsFinishedEvents) {
  const RouteModel model(three_regions(WanCapacity::pair));
  EventSpec early = pair_event(0, 1, 0, 5);
  early.bandwidth_factor = 0.1;
  EventSpec ongoing = pair_event(0, 2, 8, kInf);
  ongoing.bandwidth_factor = 0.2;
  const std::vector<LinkChange> changes = link_timeline(model, {early, ongoing}, 10);
  ASSERT_EQ(changes.size(), 2u);  // the two halves of wan:0~2, from 0 on
  for (const LinkChange& c : changes) {
    EXPECT_EQ(c.at_s, 0);
    EXPECT_DOUBLE_EQ(c.bandwidth_Bps, 0.2e8);
  }
}

TEST(EventTimeline, StragglerSpeedAndNextFailure) {
  EventSpec slow;
  slow.kind = EventSpec::Kind::host_speed;
  slow.target.kind = EventTarget::Kind::host;
  slow.target.host = 1;
  slow.at_s = 2;
  slow.duration_s = 3;
  slow.speed_factor = 0.25;
  EventSpec fail = slow;
  fail.kind = EventSpec::Kind::host_fail;
  fail.at_s = 4;
  const std::vector<EventSpec> events{slow, fail};
  const auto speeds = speed_timeline(3, events);
  EXPECT_TRUE(speeds[0].empty());
  ASSERT_EQ(speeds[1].size(), 2u);
  EXPECT_EQ(speeds[1][0].at_s, 2);
  EXPECT_EQ(speeds[1][0].factor, 0.25);
  EXPECT_EQ(speeds[1][1].at_s, 5);
  EXPECT_EQ(speeds[1][1].factor, 1);
  EXPECT_EQ(next_failure(events, {true, true, true}, 0), 1);
  EXPECT_EQ(next_failure(events, {true, false, true}, 0), -1);  // host 1 unused
  EXPECT_EQ(next_failure(events, {true, true, true}, 4, {1}), -1);  // handled
}

}  // namespace
}  // namespace hulk
