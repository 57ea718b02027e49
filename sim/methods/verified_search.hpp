#pragma once
/** @file verified_search.hpp
 *  @brief The "search" method as the CLI runs it: simulated annealing over the analytic evaluator, several
 *  independent restarts, and the final choice made by SimGrid. The evaluator is fast but approximate (its error
 *  on contended placements is measured in tests), so annealing alone can return a placement that the evaluator
 *  likes and SimGrid does not; re-checking a handful of candidates with SimGrid removes that failure mode and
 *  guarantees the answer is never worse (under SimGrid) than greedy or round-robin when they are feasible.
 *  Independent restarts rather than the best few placements of one annealing run (SearchOptions::
 *  simgrid_candidates): on sampled platforms one run's best placements are near-duplicates of one another, and
 *  restarts found markedly better placements (e.g. 7.93 s vs 13.51 s on gen-data sample 0 of seed 1). Greedy, the
 *  restarts and the check share one route model, for any number of jobs. One job (not DiLoCo): when the evaluator
 *  finds an alternative start (sim/place/alternative_starts.hpp: a DP-cluster placement, or greedy on the fastest
 *  hosts) faster than greedy's, one more annealing run of a restart's budget starts from the fastest, its answer a
 *  candidate too (several jobs start from greedy's job orders instead: an alternative start places one job). A
 *  DiLoCo job: greedy's placement is the island-first one (sim/place/island_first.hpp), every restart starts from
 *  it and keeps its islands, and it stays in the pool, so the answer is never slower under SimGrid than the
 *  island-first start; evaluator_s is the step-time estimate. */
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/methods/known_simulations.hpp"
#include "sim/place/placer.hpp"

namespace hulk {

/** @brief Budget of the verified search. */
struct VerifiedSearchOptions {
  long long total_evaluations = 20000;  ///< analytic evaluations, split over the restarts
  int restarts = 4;                     ///< independent annealing runs (seeds derived from the scenario seed)
  /** @brief Placements whose SimGrid time the caller already has (a plan simulated greedy's placement before it
   *  searches): such a candidate takes that time instead of another run (SimGrid is deterministic). */
  std::vector<std::pair<Placement, double>> known_simgrid;
  /** @brief If set: what the restarts minimise (SearchOptions::objective_of) and the SimGrid check chooses by
   *  (objective_of(hosts, SimGrid time)) instead of the time. One every-step job. */
  std::function<double(const std::vector<int>&, double)> objective_of;
  /** @brief If set: every restart starts here (SearchOptions::start) and it is a candidate of the SimGrid check; no
   *  alternative start is tried. Under a cost objective the cheap start (greedy on the cheapest hosts) sits across
   *  a valley of slow cross-region placements that moves from greedy's placement do not cross. */
  std::optional<Placement> start;
};

/** @brief One SimGrid-checked candidate. */
struct VerifiedCandidate {
  std::string origin;        ///< "greedy", "round-robin", "anneal#k", "anneal-dp-cluster", "anneal-fastest-hosts"
  double evaluator_s = 0;    ///< analytic estimate
  double simgrid_s = 0;      ///< SimGrid iteration time
  double objective = 0;      ///< what the choice was made by: the SimGrid time, or objective_of at it
  /** @brief The quiet result.json of the check's SimGrid run (quiet_simulation), null where the time was known. */
  nlohmann::json simgrid_result;
};

/** @brief Placer "search" (see file comment). Runs SimGrid in child processes, side by side. */
class VerifiedSearchPlacer : public Placer {
 public:
  explicit VerifiedSearchPlacer(VerifiedSearchOptions options = {}) : options_(options) {}
  std::string name() const override { return "search"; }
  /** @throws InputError if nothing feasible exists. */
  Placement place(const Scenario& scenario) override;
  /** @brief Candidates of the last place() call, in the order checked. */
  const std::vector<VerifiedCandidate>& candidates() const { return candidates_; }
  /** @brief The placements the last place() call's check simulated, with their quiet result.json, in the order
   *  checked (the answer among them unless its time was known). */
  KnownSimulations simulated() const;

 private:
  VerifiedSearchOptions options_;
  std::vector<VerifiedCandidate> candidates_;
  std::vector<Placement> placements_;  ///< the placement of each of candidates_
};

}  // namespace hulk
