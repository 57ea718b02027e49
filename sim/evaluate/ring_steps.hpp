#pragma once
/** @file ring_steps.hpp
 *  @brief Ring all-reduce steps as the engine runs them (sim/engine/collectives.cpp), for the analytic evaluator:
 *  in-order connections with a number of channels, receives posted a window ahead, the route latency at the
 *  receiver (CM02) or in the transfer. Pure code. */
#include <vector>

namespace hulk {

/** @brief Receives each ring member keeps posted ahead (the engine's kRecvWindow). */
constexpr int kRingRecvWindow = 8;

/** @brief How a ring's connections behave. */
struct RingModel {
  int channels = 1;                 ///< NetworkSpec::channels_per_peer
  bool latency_at_receiver = true;  ///< CM02: a chunk leaves after its transfer and arrives one latency later
  /** Per hop, with a TCP window: how much faster than its window-capped rate its fair share would let it go
   *  (Evaluator::concurrent_times' headroom): up to that many chunks of one connection in flight at once go at the
   *  capped rate each. Null: 1 for every hop (no window: chunks in flight at once share the hop's rate). */
  const double* headroom = nullptr;
};

/** @brief `steps` steps of a ring of n members whose member j enters at start_s[j]; hop_s[i] = time of hop
 *  i -> i+1 (latency + transfer), latency_s[i] its latency (seconds). Writes end_s[j] (member j's last send left
 *  and last receive arrived) and returns the largest. `scratch` is reused between calls. A ring whose members are
 *  all alike takes ring_steps_uniform, any other ring_steps_general. */
double ring_steps_from(const double* hop_s, const double* latency_s, int n, int steps, const RingModel& model,
                       const double* start_s, double* end_s, std::vector<double>& scratch);

/** @brief ring_steps_from's recurrence member by member, O(n x steps) time and O(n) memory, whatever the ring: the
 *  reference the fast paths are tested against. */
double ring_steps_general(const double* hop_s, const double* latency_s, int n, int steps, const RingModel& model,
                          const double* start_s, double* end_s, std::vector<double>& scratch);

/** @brief `steps` steps of a ring whose members are all alike (hop time `hop`, latency `lat`, headroom
 *  model.headroom[0] if set, every member entering at `start`): every member ends at the returned time, the same bits
 *  as ring_steps_general in O(steps), whatever the ring's size. */
double ring_steps_uniform(double hop, double lat, int steps, const RingModel& model, double start,
                          std::vector<double>& scratch);

/** @brief ring_steps_from with every member entering at 0; returns the ring's time, seconds. */
double ring_steps_s(const double* hop_s, const double* latency_s, int n, int steps, const RingModel& model,
                    std::vector<double>& scratch);

}  // namespace hulk
