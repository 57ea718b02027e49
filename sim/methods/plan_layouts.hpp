#pragma once
/** @file plan_layouts.hpp
 *  @brief The layouts `hulk plan` considers for a scenario's job: every combination of the parts left `auto`
 *  (Scenario::plan) within its constraints, each checked as a scenario of its own (the loader's job checks, then
 *  the memory fit with its recomputation). Pure enumeration: no placement, no timing. */
#include <string>
#include <vector>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief One choice of the parts a plan makes. */
struct Layout {
  Parallelism par;
  int micro_batch = 1;
  std::string schedule = "1f1b";
  std::string recompute = "none";
  int zero = 0;                    ///< ZeRO stage
  bool sequence_parallel = false;  ///< Megatron sequence parallelism
  /** @brief "dp4-tp2-pp8 mb2 1f1b none", then " zero1" with a ZeRO stage and " sp" with sequence parallelism: how
   *  tables and progress lines name it. */
  std::string name() const;
};

/** @brief A layout and why it cannot run ("" if it can). */
struct LayoutCandidate {
  Layout layout;
  std::string infeasible;  ///< the job check or memory fit that failed
};

/** @brief The GPU counts and degree caps a plan respects, with the defaults resolved (PlanSpec says which). */
struct LayoutBounds {
  int min_gpus = 1;
  int max_gpus = 1;
  int tp_max = 1;
  int pp_max = 1;
};

/** @brief The scenario's plan constraints with their defaults: max_gpus = the platform's GPUs, tp_max = the most
 *  GPUs of one host (Megatron keeps tensor parallelism inside a server), pp_max = the model's layers. */
LayoutBounds layout_bounds(const Scenario& scenario);

/** @brief Every layout of the scenario's job: the auto parts over their ranges (dp x tp x pp within the GPU
 *  bounds and the plan's fixed degrees or listed layouts, tp dividing the heads, pp at most the layers, dp x
 *  micro_batch dividing the global batch; micro-batch sizes powers of two; both schedules; the three
 *  recomputations; ZeRO stages 0 to 3, stage 3 only with pp 1; sequence parallelism off and on, on only with
 *  tp > 1), the other parts as given. Layouts whose counts cannot divide (tp not dividing the heads, a batch that
 *  does not split) or that no model covers (ZeRO 3 with pipelines, sequence parallelism without tp) are left out;
 *  those that divide but fail a job check or the memory fit are returned with the reason. In a fixed order (GPUs
 *  descending, then tp, pp, micro-batch, schedule, recompute, zero, sequence parallelism ascending): among layouts
 *  of equal time the first, with the least sharding, wins. */
std::vector<LayoutCandidate> enumerate_layouts(const Scenario& scenario);

/** @brief The scenario with a layout in its job and nothing auto left. */
Scenario with_layout(const Scenario& scenario, const Layout& layout);

/** @brief The layout the scenario's job has now (its auto parts at their defaults). */
Layout current_layout(const Scenario& scenario);

}  // namespace hulk
