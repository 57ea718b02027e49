#pragma once
/** @file stage_sharing.hpp
 *  @brief The DP all-reduces of several pipeline stages sharing links over time, each stage's all-reduce one bundle
 *  of flows (the evaluator's per-stage fallback, approximation 3 of evaluator.hpp). Pure code.
 *
 *  Why bundles: a ring moves at the pace of its slowest hop, so over a ring step every hop of a stage carries the
 *  same bytes at the same mean rate; a stage's all-reduce then uses each of its links at (its flows on the link) x
 *  (the stage's rate). The rates of the stages in flight at once are max-min fair over those weighted uses (what
 *  SimGrid's sharing converges to when the bottleneck flows are the rings'), recomputed whenever a stage enters or
 *  finishes: a stage that finishes frees its share for the others, which a load fixed for the whole all-reduce
 *  does not. */
#include <vector>

namespace hulk {

/** @brief Stages' all-reduces and the links they use. Links are numbered 0 .. capacity.size()-1 by the caller. */
struct StageBundles {
  std::vector<double> capacity;  ///< per link, bytes/s
  std::vector<int> first{0};     ///< stage s uses entries [first[s], first[s+1]) of link/flows
  std::vector<int> link;         ///< per entry: a link
  std::vector<double> flows;     ///< per entry: the stage's flows on it (> 0)
  std::vector<double> rate_cap;  ///< per stage: the most one flow of it may carry (flow cap, TCP window), bytes/s
  std::vector<double> start;     ///< per stage: when its all-reduce starts (s)
  std::vector<double> alone;     ///< per stage: its all-reduce's time alone (s); <= 0: no all-reduce
  /** Per stage: the part of `alone` that does not depend on bandwidth (latencies), not stretched by sharing. */
  std::vector<double> fixed;
  /** @brief Forgets every stage and link (buffers are kept). */
  void clear();
  /** @brief Number of stages. */
  int stages() const { return static_cast<int>(first.size()) - 1; }
};

/** @brief Scratch of shared_stage_times (reused between calls). */
struct StageSharingScratch {
  std::vector<double> rate, room, load, alone_rate, left;
  std::vector<char> frozen, active;
};

/** @brief Max-min fair rates (bytes/s per flow) of the stages whose `active` flag is set, each stage's flows on a
 *  link weighing `flows` on it, each stage capped at rate_cap (progressive filling); rate[s] for active stages. */
void max_min_stage_rates(const StageBundles& b, const std::vector<char>& active, StageSharingScratch& x,
                         std::vector<double>& rate);

/** @brief Each stage's all-reduce time (s, from its start) when the stages share their links: a stage's progress
 *  through its bandwidth part runs at its max-min rate over its rate alone, its fixed part at full pace; rates change
 *  when a stage starts or finishes. A stage alone gets exactly `alone`; never less than `alone`. */
void shared_stage_times(const StageBundles& b, StageSharingScratch& x, std::vector<double>& out);

}  // namespace hulk
