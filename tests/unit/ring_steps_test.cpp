// The ring recurrence's fast path (sim/evaluate/ring_steps.hpp): a ring whose members are all alike takes
// ring_steps_uniform, which must give the same bits as the general recurrence member by member, with and without
// channels, a window's headroom, entry times and the latency at the receiver; a ring with one member unlike the
// others keeps the general path; one channel per connection takes a branch-free pass of the same recurrence, which
// must give the general recurrence's bits on rings of unlike members too.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "sim/evaluate/ring_steps.hpp"

namespace hulk {
namespace {

struct RingCase {
  int n, steps, channels;
  bool latency_at_receiver, headroom, entry;
};

TEST(RingSteps, AlikeMembersGiveTheGeneralRecurrencesBits) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> lat_d(1e-6, 5e-2), x_d(1e-6, 1e-1), room_d(0.5, 6.0), start_d(0.0, 1.0);
  const RingCase cases[] = {{2, 2, 1, true, false, false},   {8, 14, 1, true, false, false},
                            {64, 126, 2, true, false, true}, {17, 32, 4, false, true, true},
                            {1024, 2046, 2, true, true, false}, {5, 8, 12, true, true, true},
                            {33, 64, 1, false, false, true}};
  std::vector<double> scratch, scratch2;
  for (const RingCase& c : cases)
    for (int draw = 0; draw < 4; ++draw) {
      const double lat = lat_d(rng), hop = lat + x_d(rng), room = room_d(rng), entry = c.entry ? start_d(rng) : 0.0;
      const std::vector<double> hops(c.n, hop), lats(c.n, lat), rooms(c.n, room), starts(c.n, entry);
      const RingModel model{c.channels, c.latency_at_receiver, c.headroom ? rooms.data() : nullptr};
      std::vector<double> end_general(c.n), end_fast(c.n);
      const double general = ring_steps_general(hops.data(), lats.data(), c.n, c.steps, model,
                                                c.entry ? starts.data() : nullptr, end_general.data(), scratch);
      const double fast = ring_steps_from(hops.data(), lats.data(), c.n, c.steps, model,
                                          c.entry ? starts.data() : nullptr, end_fast.data(), scratch2);
      EXPECT_EQ(general, fast) << "n " << c.n << " channels " << c.channels;
      EXPECT_EQ(end_general, end_fast) << "n " << c.n;
      EXPECT_EQ(general, ring_steps_uniform(hop, lat, c.steps, model, entry, scratch2));
      // Without a window or a late receiver, equal hops are the closed form steps x hop (from the entry).
      if (c.channels == 1 && !c.entry) EXPECT_NEAR(fast, c.steps * hop, 1e-12 * c.steps * hop);
    }
}

TEST(RingSteps, OneUnlikeMemberTakesTheGeneralPath) {
  // ring_steps_from agrees with the general recurrence whichever member is unlike the others (hop, latency, headroom
  // or entry).
  const int n = 16, steps = 2 * (n - 1);
  std::vector<double> scratch;
  for (int what = 0; what < 4; ++what) {
    std::vector<double> hops(n, 2e-3), lats(n, 1e-5), rooms(n, 2.0), starts(n, 0.0);
    if (what == 0) hops[5] = 9e-3;
    if (what == 1) lats[5] = 1.5e-3;
    if (what == 2) rooms[5] = 1.0;
    if (what == 3) starts[5] = 4e-2;
    const RingModel model{2, true, rooms.data()};
    std::vector<double> a(n), b(n);
    const double general = ring_steps_general(hops.data(), lats.data(), n, steps, model, starts.data(), a.data(),
                                              scratch);
    const double fast = ring_steps_from(hops.data(), lats.data(), n, steps, model, starts.data(), b.data(), scratch);
    EXPECT_EQ(general, fast) << what;
    EXPECT_EQ(a, b) << what;
    // A slower hop or a late member delays the ring (a latency or headroom alone need not, with these hops).
    const double alike = ring_steps_uniform(2e-3, 1e-5, steps, model, 0.0, scratch);
    if (what == 0 || what == 3) EXPECT_GT(general, alike) << what;
  }
}

TEST(RingSteps, OneChannelUnlikeMembersGiveTheGeneralRecurrencesBits) {
  // Every member drawn on its own (hops, latencies, entries, some equal so that ties between the max's operands
  // occur, and zero entries): the one-channel pass against the general recurrence, bit for bit, ends included.
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> lat_d(1e-6, 5e-2), x_d(0.0, 1e-1), start_d(0.0, 0.3);
  std::uniform_int_distribution<int> pick(0, 3);
  std::vector<double> scratch, scratch2;
  int slower_than_alike = 0;
  for (int n : {1, 2, 3, 8, 9, 64, 257})
    for (bool at_receiver : {true, false})
      for (bool entry : {true, false})
        for (int draw = 0; draw < 3; ++draw) {
          std::vector<double> hops(n), lats(n), starts(n);
          for (int j = 0; j < n; ++j) {
            lats[j] = pick(rng) == 0 ? 1e-3 : lat_d(rng);
            hops[j] = lats[j] + (pick(rng) == 0 ? 2e-3 : x_d(rng));
            starts[j] = pick(rng) == 0 ? 0.0 : start_d(rng);
          }
          const int steps = std::max(1, 2 * (n - 1));
          const RingModel model{1, at_receiver, nullptr};
          std::vector<double> a(n), b(n);
          const double* start = entry ? starts.data() : nullptr;
          const double general = ring_steps_general(hops.data(), lats.data(), n, steps, model, start, a.data(), scratch);
          const double fast = ring_steps_from(hops.data(), lats.data(), n, steps, model, start, b.data(), scratch2);
          EXPECT_EQ(general, fast) << "n " << n << " draw " << draw;
          EXPECT_EQ(a, b) << "n " << n << " draw " << draw;
          if (n > 2 && fast > steps * 2e-3) ++slower_than_alike;
        }
  EXPECT_GT(slower_than_alike, 0);  // the draws reach rings that unlike hops slow down
}

}  // namespace
}  // namespace hulk
