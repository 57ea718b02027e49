#pragma once
/** @file gpu_share.hpp
 *  @brief A job's share of a cluster shared by several jobs: the one-job scenario of job j on a set of GPUs (the
 *  ones still free), and the map from its GPUs back to the cluster's. Any one-job placer run on the share gives a
 *  placement of job j on those GPUs only (GpuShare::to_original).
 *
 *  The share's platform: the hosts holding at least one of the GPUs, in listed order, each with `gpus` = its number
 *  of GPUs in the set (GPUs of a host are identical, so which slots does not matter); names, regions, GPU model,
 *  NIC and intra-host links unchanged; regions, WAN, WAN capacity and the SimGrid XML file kept; the per-host-pair
 *  latencies and bandwidths renumbered to the share's host indices (pairs with a dropped host removed). The route
 *  model and the evaluator read nothing else per host, and an XML platform maps hosts by name, so evaluating a
 *  placement on the share gives the same routes as on the cluster. One difference: a host's intra-host aggregate
 *  link scales with its GPU count (RouteModel), so it is smaller in the share; it carries at most the share's own
 *  flows there, which it still fits at the per-GPU rate. The share is for the analytic evaluator (placers), not for
 *  a SimGrid run: simulating it would simulate job j alone on a smaller platform. */
#include <vector>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief The one-job scenario of one job on a set of GPUs, and the way back (see the file comment). */
struct GpuShare {
  /** @brief One-job scenario (Scenario::jobs empty, job = the job) on the share's platform. */
  Scenario scenario;
  /** @brief original[sub_host][sub_slot]: the cluster GPU behind each GPU of the share. */
  std::vector<std::vector<GpuSlot>> original;
  /** @brief Cluster host index of each share host. */
  std::vector<int> original_host;

  /** @brief The cluster GPU of a share GPU. @throws std::out_of_range if it is not a GPU of the share. */
  GpuSlot to_original(const GpuSlot& sub) const;
  /** @brief A placement on the share as a placement on the cluster (same ranks, cluster GPUs). */
  Placement to_original(const Placement& sub) const;
  /** @brief A placement on the cluster's GPUs of the share as a placement on the share (to_original's inverse).
   *  @throws std::out_of_range if a rank is on a GPU outside the share. */
  Placement to_share(const Placement& placed) const;
};

/** @brief The share of job j (0 <= j < job_count(s)) on the GPUs `gpus` of s.platform (any order, no duplicates;
 *  sorted inside). @throws std::out_of_range for a GPU that is not on the platform. */
GpuShare make_gpu_share(const Scenario& s, int j, const std::vector<GpuSlot>& gpus);

/** @brief The GPUs of the platform that no entry of `used` occupies, in all_gpus() order (host, then slot). */
std::vector<GpuSlot> free_gpus(const PlatformSpec& platform, const std::vector<GpuSlot>& used);

}  // namespace hulk
