#include "sim/methods/plan_layouts.hpp"

#include <algorithm>

#include "sim/core/errors.hpp"
#include "sim/scenario/bounds.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/workload/memory_fit.hpp"

namespace hulk {
namespace {

/** Divisors of n in [1, cap], ascending. */
std::vector<int> divisors(int n, int cap) {
  std::vector<int> out;
  for (int d = 1; d <= std::min(n, cap); ++d)
    if (n % d == 0) out.push_back(d);
  return out;
}

/** Why the layout cannot run ("" if it can): the loader's job checks, then the memory fit. */
std::string infeasibility(const Scenario& s) {
  try {
    validate_job(s);
  } catch (const InputError& e) {
    // "FILE: KEY: message": the file is the plan's own scenario, the key and message say what failed.
    const std::string what = e.what(), prefix = (s.file.empty() ? std::string("<input>") : s.file) + ": ";
    return what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what;
  }
  int job = -1;
  return memory_fit_problem(s, job);
}

/** The plan's fixed degrees and listed layouts admit this one. */
bool admitted(const PlanSpec& p, const Parallelism& par) {
  const Parallelism& f = p.fixed;
  if ((f.dp > 0 && par.dp != f.dp) || (f.tp > 0 && par.tp != f.tp) || (f.pp > 0 && par.pp != f.pp)) return false;
  if (p.layouts.empty()) return true;
  for (const Parallelism& l : p.layouts)
    if (l.dp == par.dp && l.tp == par.tp && l.pp == par.pp) return true;
  return false;
}

/** The dp x tp x pp choices of the job (see enumerate_layouts). */
std::vector<Parallelism> degree_choices(const Scenario& s) {
  const PlanSpec& p = s.plan;
  const JobSpec& j = s.only_job();
  if (!p.parallelism) return {j.par};
  const LayoutBounds b = layout_bounds(s);
  // tp splits the heads and, with grouped-query attention, the key/value heads too (as the loader requires).
  const int kv = j.model.kv_heads_or_heads();
  std::vector<Parallelism> degrees;
  for (int gpus = b.max_gpus; gpus >= b.min_gpus; --gpus)
    for (int tp : divisors(j.model.heads, b.tp_max))
      for (int pp = 1; kv % tp == 0 && pp <= b.pp_max && tp * pp <= gpus; ++pp)
        if (gpus % (tp * pp) == 0 && j.global_batch % (gpus / (tp * pp)) == 0 &&
            admitted(p, {gpus / (tp * pp), tp, pp}))
          degrees.push_back({gpus / (tp * pp), tp, pp});
  return degrees;
}

}  // namespace

std::string Layout::name() const {
  return "dp" + std::to_string(par.dp) + "-tp" + std::to_string(par.tp) + "-pp" + std::to_string(par.pp) + " mb" +
         std::to_string(micro_batch) + " " + schedule + " " + recompute +
         (zero > 0 ? " zero" + std::to_string(zero) : "") + (sequence_parallel ? " sp" : "");
}

LayoutBounds layout_bounds(const Scenario& s) {
  LayoutBounds b;
  const PlanSpec& p = s.plan;
  int per_host = 1;
  for (const HostSpec& h : s.platform.hosts) per_host = std::max(per_host, h.gpus);
  b.min_gpus = p.min_gpus;
  b.max_gpus = p.max_gpus > 0 ? p.max_gpus : s.platform.total_gpus();
  // A fixed or listed tp above one host's GPUs is the user's explicit choice: the default cap yields to it.
  int asked_tp = p.fixed.tp;
  for (const Parallelism& l : p.layouts) asked_tp = std::max(asked_tp, l.tp);
  b.tp_max = p.tp_max > 0 ? p.tp_max : std::max(per_host, asked_tp);
  b.pp_max = p.pp_max > 0 ? p.pp_max : s.only_job().model.layers;
  return b;
}

Layout current_layout(const Scenario& s) {
  Layout l;
  l.par = s.only_job().par;
  l.micro_batch = s.only_job().micro_batch;
  l.schedule = s.only_job().schedule;
  l.recompute = s.only_job().recompute;
  l.zero = s.only_job().zero;
  l.sequence_parallel = s.only_job().sequence_parallel;
  return l;
}

Scenario with_layout(const Scenario& s, const Layout& l) {
  Scenario out = s;
  out.only_job().par = l.par;
  out.only_job().micro_batch = l.micro_batch;
  out.only_job().schedule = l.schedule;
  out.only_job().recompute = l.recompute;
  out.only_job().zero = l.zero;
  out.only_job().sequence_parallel = l.sequence_parallel;
  out.plan.parallelism = out.plan.micro_batch = out.plan.schedule = out.plan.recompute = false;
  out.plan.zero = out.plan.sequence_parallel = false;
  return out;
}

std::vector<LayoutCandidate> enumerate_layouts(const Scenario& s) {
  const PlanSpec& p = s.plan;
  const JobSpec& j = s.only_job();
  const std::vector<std::string> schedules =
      p.schedule ? std::vector<std::string>{"1f1b", "gpipe"} : std::vector<std::string>{j.schedule};
  const std::vector<std::string> recomputes =
      p.recompute ? std::vector<std::string>{"none", "selective", "full"} : std::vector<std::string>{j.recompute};
  std::vector<LayoutCandidate> out;
  for (const Parallelism& par : degree_choices(s)) {
    std::vector<int> micro = {j.micro_batch};
    if (p.micro_batch) {
      micro.clear();
      const int per_replica = j.global_batch / par.dp;
      for (long long m = 1; m <= per_replica && m <= bounds::kMaxMicroBatch; m *= 2)
        if (per_replica % m == 0 && per_replica / m <= bounds::kMaxMicroBatchesPerPipeline)
          micro.push_back(static_cast<int>(m));
    } else if (j.global_batch % (static_cast<long long>(par.dp) * j.micro_batch) != 0) {
      continue;  // the given micro-batch does not split this dp's share of the batch
    }
    std::vector<int> zeros = {j.zero};
    if (p.zero) zeros = par.pp == 1 ? std::vector<int>{0, 1, 2, 3} : std::vector<int>{0, 1, 2};
    std::vector<bool> sps = {j.sequence_parallel};
    if (p.sequence_parallel) sps = par.tp > 1 ? std::vector<bool>{false, true} : std::vector<bool>{false};
    for (int mb : micro)
      for (const std::string& schedule : schedules)
        for (const std::string& recompute : recomputes)
          for (int zero : zeros)
            for (bool sp : sps) {
              LayoutCandidate c;
              c.layout = Layout{par, mb, schedule, recompute, zero, sp};
              c.infeasible = infeasibility(with_layout(s, c.layout));
              out.push_back(std::move(c));
            }
  }
  return out;
}

}  // namespace hulk
