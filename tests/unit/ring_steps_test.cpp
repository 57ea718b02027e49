// The ring recurrence's fast path (sim/evaluate/ring_steps.hpp): a ring whose members are all alike takes
// ring_steps_uniform, which must give the same bits as the general recurrence member by member, with and without
// channels, a window's headroom, entry times and the latency at the receiver; a ring with one member unlike the
// others keeps the general path.
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

}  // namespace
}  // namespace hulk
