#pragma once
/** @file labelling.hpp
 *  @brief gen-data's labelling pipeline for one sample: a sampled scenario, the greedy reference run in SimGrid
 *  (its traced traffic and time), the search label (the registry's SimGrid-checked search) and round-robin's
 *  SimGrid time when it is feasible. The GNN's data set format (gnn/dataset.hpp) stores the result; this file
 *  does not know it, as sim/ may not depend on gnn/. */
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/core/spec.hpp"
#include "sim/core/traffic_matrix.hpp"

namespace hulk {

/** @brief Knobs of the labelling (gen-data's --budget and --max-gpus). */
struct LabelOptions {
  long long budget = 5000;  ///< search evaluations per label
  int max_gpus = 128;       ///< largest sampled platform (GPUs)
  /** @brief 0 = one job per cluster; >= 2: clusters shared by this many jobs (sample_jobs_scenario), each sample
   *  then being one of its jobs on the GPUs the jobs before it left (see make_labelled_sample). */
  int jobs = 0;
  /** @brief true (gen-data --label simgrid): the SimGrid-checked search labels, SimGrid times. false (--label
   *  evaluator): the plain annealing search over the analytic evaluator labels the sample and no SimGrid
   *  runs at all: traffic is the analytic estimate of greedy's placement, and times_s holds the evaluator's
   *  estimates under "greedy_est" and "search_est" (never under the SimGrid keys). Far faster, for many labels. */
  bool simgrid = true;
  /** @brief WAN capacity model of the sampled platforms (gen-data --wan): "pair" (default), "host", or "mixed"
   *  (each sample's drawn from its seed, half and half). */
  std::string wan = "pair";
};

/** @brief One labelled sample. */
struct LabelledSample {
  Scenario scenario;                      ///< sampled platform and job
  TrafficMatrix traffic;                  ///< greedy placement's traced traffic per host pair and kind
  Placement label;                        ///< search's placement
  /** @brief "greedy", "search", "round-robin" (if feasible) -> SimGrid seconds; evaluator labels: "greedy_est",
   *  "search_est" -> the analytic evaluator's seconds. */
  std::map<std::string, double> times_s;
};

/** @brief Samples the scenario of scenario_seed and labels it (SimGrid runs in children).
 *  With options.jobs >= 2 the cluster is shared by that many jobs: the label of the whole cluster is the joint
 *  search's (SimGrid-checked), and the sample is the job at a seed-drawn position of the order the several-job gnn
 *  places them in (best_greedy_jobs_placement), on the share of the GPUs the search gave the jobs before it
 *  (what the model sees at that step, with the search's choices for the earlier jobs), labelled with the search's
 *  placement of that job on that share. Its times are those of the job alone on the share.
 *  @throws InputError if the sampled job cannot be placed. */
LabelledSample make_labelled_sample(std::uint64_t scenario_seed, const LabelOptions& options);

/** @brief Greedy's gap to the search label over samples' times (greedy / search - 1; SimGrid times, else the
 *  evaluator's estimates "greedy_est"/"search_est"; samples with neither are left out): count, median, mean, 90th
 *  percentile and the share in each bucket (<= 0.1%, 0.1-1%, 1-5%, 5-10%, 10-25%, > 25%), two lines for stderr. */
std::string gap_distribution_text(const std::vector<std::map<std::string, double>>& times);

}  // namespace hulk
