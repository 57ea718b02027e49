// `hulk plan`'s search over layouts (plan.hpp says the steps and why each may drop a layout).
#include "sim/methods/plan.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <numeric>
#include <tuple>

#include "sim/core/errors.hpp"
#include "sim/core/parallel_tasks.hpp"
#include "sim/core/subprocess.hpp"
#include "sim/engine/isolated_run.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/evaluate/lower_bound.hpp"
#include "sim/methods/plan_journal.hpp"
#include "sim/methods/verified_search.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/host_prefix_greedy.hpp"
#include "sim/workload/cost_model.hpp"

namespace hulk {
namespace {

/** Layouts placed together in one screening round: fixed (not the thread count), so that which layouts the bound
 *  prunes, and hence the answer, is the same on any machine. */
constexpr std::size_t kScreenBatch = 4;

/** What a plan carries through its steps besides the rows. */
struct PlanContext {
  const Scenario& s;
  const PlanOptions& o;
  PlanJournal& journal;
  bool by_cost = false;  ///< objective cost: rank by $ per 1M tokens
  int simulated = 0;
};

std::string seconds_text(double s) {
  char t[32];
  std::snprintf(t, sizeof t, "%.4g s", s);
  return t;
}

/** The objective's value as text: seconds or dollars per 1M tokens. */
std::string score_text(const PlanContext& c, double v) {
  if (!c.by_cost) return seconds_text(v);
  char t[32];
  std::snprintf(t, sizeof t, "$%.4g per 1M tokens", v);
  return t;
}

void say(const PlanOptions& o, const std::string& line) {
  if (o.progress) o.progress(line);
}

void check_interrupt(const char* step) {
  if (interrupt_requested()) throw Interrupted(std::string("plan stopped during ") + step + "; nothing written");
}

/** What the plan ranks a row by, from its estimate (screening, finalists) or its best time (the answer). */
double estimate_score(const PlanContext& c, const PlanRow& r) {
  return c.by_cost ? r.cost.usd_per_mtokens(r.estimate_s, r.tokens) : r.estimate_s;
}
double score(const PlanContext& c, const PlanRow& r) { return c.by_cost ? r.usd_per_mtokens() : r.time_s(); }

/** The lower bound of a row's score: the compute-only time bound, under cost on the cheapest GPUs. */
double bound_score(const PlanContext& c, const PlanRow& r) {
  return c.by_cost ? cheapest_gpu_usd_per_s(c.s) * r.gpus * r.lower_bound_s / r.tokens * 1e6 : r.lower_bound_s;
}

/** Rows of every enumerated layout with their bound, memory and tokens (infeasible ones pruned with the reason). */
std::vector<PlanRow> bounded_rows(const Scenario& s, const std::vector<LayoutCandidate>& candidates) {
  std::vector<PlanRow> rows;
  for (const LayoutCandidate& c : candidates) {
    PlanRow r;
    r.layout = c.layout;
    r.gpus = c.layout.par.ranks();
    r.tokens = static_cast<double>(s.only_job().global_batch) * s.only_job().model.seq_len;
    if (!c.infeasible.empty()) {
      r.pruned = "infeasible: " + c.infeasible;
    } else {
      const Scenario ls = with_layout(s, c.layout);
      r.lower_bound_s = lower_bound_s(ls);
      for (const StageCost& st : compute_job_cost(ls.only_job()).stages)
        r.peak_memory_bytes = std::max(r.peak_memory_bytes, st.peak_memory_bytes);
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

/** Hosts by price per GPU-hour, cheapest first (ties: listed order). */
std::vector<int> cheapest_hosts(const Scenario& s) {
  std::vector<int> order(s.platform.hosts.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return s.prices.gpu_hour.at(s.platform.hosts[a].gpu.name) < s.prices.gpu_hour.at(s.platform.hosts[b].gpu.name);
  });
  return order;
}

/** A labelled placement of one degree choice. */
struct Candidate {
  std::string method;
  Placement placement;
};

/** Placements of a variant: greedy's and, under cost, greedy's on the cheapest hosts (each when it exists). */
std::vector<Candidate> fresh_candidates(const PlanContext& c, const Scenario& ls, const Evaluator& ev,
                                        std::string& failure) {
  std::vector<Candidate> out;
  try {
    out.push_back({"greedy", GreedyPlacer::place_with(ls, ev)});
  } catch (const InputError& e) {
    failure = std::string("greedy found no placement: ") + e.what();
  }
  if (c.by_cost)
    if (std::optional<Placement> p = greedy_on_host_prefix(ls, cheapest_hosts(ls)))
      out.push_back({"greedy-cheapest", std::move(*p)});
  return out;
}

/** The row's estimate, method and cost for the fastest (or, under cost, cheapest) finite candidate; the first one
 *  with an infinite estimate when none is finite. @return false if there is no candidate at all. */
bool take_best(const PlanContext& c, const Scenario& ls, const Evaluator& ev, const std::vector<Candidate>& pool,
               PlanRow& r) {
  double best = INFINITY;
  for (const Candidate& k : pool) {
    const double t = ev.iteration_time_s(k.placement);
    const PlacementCost cost = std::isfinite(t) ? placement_cost(ls, k.placement) : PlacementCost{};
    const double v = c.by_cost ? cost.usd_per_mtokens(t, r.tokens) : t;
    if (r.method.empty() || v < best) {
      best = v;
      r.method = k.method;
      r.placement = k.placement;
      r.estimate_s = t;
      r.cost = cost;
    }
  }
  return !r.method.empty();
}

/** Greedy's placement of the degrees of `group` (rows of one dp x tp x pp), estimated for each of its variants:
 *  greedy runs for the variant with the lowest bound, and again only for a variant its placement does not fit. */
void place_group(const PlanContext& c, const std::shared_ptr<const RouteModel>& net, const std::vector<int>& group,
                 std::vector<PlanRow>& rows) {
  std::vector<Candidate> shared;
  for (int i : group) {
    PlanRow& r = rows[static_cast<std::size_t>(i)];
    const Scenario ls = with_layout(c.s, r.layout);
    const Evaluator ev(ls, net);
    bool fits = false;
    for (const Candidate& k : shared) fits = fits || std::isfinite(ev.iteration_time_s(k.placement));
    std::string failure;
    const std::vector<Candidate> own = fits ? std::vector<Candidate>{} : fresh_candidates(c, ls, ev, failure);
    if (!take_best(c, ls, ev, fits ? shared : own, r)) {
      r.pruned = failure;
      continue;
    }
    if (shared.empty()) shared = own;
  }
}

std::string screen_key(const PlanRow& r) { return "screen " + r.layout.name(); }

/** A group's rows from the journal; false (nothing changed) unless every row of it is there. */
bool restore_group(const PlanContext& c, const std::vector<int>& group, std::vector<PlanRow>& rows) {
  for (int i : group)
    if (!c.journal.find(screen_key(rows[i]))) return false;
  for (int i : group) {
    PlanRow& r = rows[i];
    const JournalEntry& e = *c.journal.find(screen_key(r));
    r.method = e.method;
    r.estimate_s = e.estimate_s;
    r.placement = e.placement;
    r.pruned = e.note;
    if (!r.method.empty() && std::isfinite(r.estimate_s)) r.cost = placement_cost(with_layout(c.s, r.layout), r.placement);
  }
  return true;
}

void journal_group(const PlanContext& c, const std::vector<int>& group, const std::vector<PlanRow>& rows) {
  for (int i : group) {
    const PlanRow& r = rows[i];
    c.journal.record(screen_key(r), {r.method, r.estimate_s, NAN, r.placement, r.pruned});
  }
}

/** Feasible rows grouped by degrees; groups in ascending order of their lowest bound (ties: enumeration order). */
std::vector<std::vector<int>> degree_groups(const PlanContext& c, const std::vector<PlanRow>& rows) {
  std::map<std::tuple<int, int, int>, std::vector<int>> by_degrees;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i].pruned.empty()) {
      const Parallelism& p = rows[i].layout.par;
      by_degrees[{p.dp, p.tp, p.pp}].push_back(static_cast<int>(i));
    }
  const auto bound = [&](int i) { return bound_score(c, rows[i]); };
  std::vector<std::vector<int>> groups;
  for (auto& [key, g] : by_degrees) {
    std::stable_sort(g.begin(), g.end(), [&](int a, int b) { return bound(a) < bound(b); });
    groups.push_back(g);
  }
  std::stable_sort(groups.begin(), groups.end(), [&](const std::vector<int>& a, const std::vector<int>& b) {
    return bound(a[0]) < bound(b[0]) || (bound(a[0]) == bound(b[0]) && a[0] < b[0]);
  });
  return groups;
}

/** Step 3 (plan.hpp). @return the number of degree choices placed. */
int screen(PlanContext& c, std::vector<PlanRow>& rows) {
  const std::vector<std::vector<int>> groups = degree_groups(c, rows);
  const auto net = analytic_route_model(c.s);
  double best = INFINITY;
  int placed = 0;
  for (std::size_t g0 = 0; g0 < groups.size(); g0 += kScreenBatch) {
    check_interrupt("screening");
    const std::size_t g1 = std::min(groups.size(), g0 + kScreenBatch);
    std::vector<std::function<void()>> tasks;
    std::vector<std::size_t> ran;
    for (std::size_t g = g0; g < g1; ++g) {
      const std::vector<int>& group = groups[g];
      const double bound = bound_score(c, rows[group[0]]);
      if ((c.o.bound_pruning && bound >= best) || placed >= c.o.screen) {
        for (int i : group)
          rows[i].pruned = bound >= best ? "lower bound " + score_text(c, bound) + " >= best estimate " +
                                               score_text(c, best)
                                         : "beyond the " + std::to_string(c.o.screen) +
                                               " degree choices with the lowest bounds";
        continue;
      }
      ++placed;
      if (restore_group(c, group, rows)) continue;
      ran.push_back(g);
      tasks.push_back([&c, &net, &group, &rows] { place_group(c, net, group, rows); });
    }
    run_tasks(tasks);
    for (std::size_t g : ran) journal_group(c, groups[g], rows);
    const double before = best;
    for (std::size_t g = g0; g < g1; ++g)
      for (int i : groups[g])
        if (rows[i].pruned.empty() && estimate_score(c, rows[i]) < best) best = estimate_score(c, rows[i]);
    if (best < before || g1 == groups.size())
      say(c.o, "plan: screened " + std::to_string(g1) + " of " + std::to_string(groups.size()) +
                   " degree choices, best estimate " + score_text(c, best));
  }
  return placed;
}

/** Row indices of at most `finalists` placed layouts with the lowest estimates, none more than kFinalistMargin
 *  above the lowest (ties: enumeration order). */
std::vector<int> finalists(const PlanContext& c, std::vector<PlanRow>& rows) {
  std::vector<int> placed;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i].pruned.empty() && std::isfinite(estimate_score(c, rows[i]))) placed.push_back(static_cast<int>(i));
  std::stable_sort(placed.begin(), placed.end(),
                   [&](int a, int b) { return estimate_score(c, rows[a]) < estimate_score(c, rows[b]); });
  std::size_t keep = std::min(placed.size(), static_cast<std::size_t>(std::max(c.o.finalists, 1)));
  for (std::size_t k = 1; k < keep; ++k)
    if (estimate_score(c, rows[placed[k]]) > (1 + c.o.finalist_margin) * estimate_score(c, rows[placed[0]]))
      keep = k;
  for (std::size_t k = keep; k < placed.size(); ++k)
    rows[placed[k]].pruned = k < static_cast<std::size_t>(c.o.finalists)
                                 ? "estimate more than " + std::to_string(static_cast<int>(c.o.finalist_margin * 100)) +
                                       "% above the best layout's"
                                 : "estimate above the " + std::to_string(keep) + " best layouts'";
  for (PlanRow& r : rows)
    if (r.pruned.empty() && !std::isfinite(estimate_score(c, r))) r.pruned = "no feasible placement";
  placed.resize(keep);
  std::sort(placed.begin(), placed.end());
  return placed;
}

/** SimGrid's time of a row's placement into simgrid_s (with a progress line), from the journal when it is there. */
void simulate_row(PlanContext& c, const Scenario& ls, PlanRow& r) {
  check_interrupt("SimGrid checks");
  const std::string key = "simgrid " + r.layout.name() + " " + r.method;
  if (const JournalEntry* e = c.journal.find(key)) {
    r.simgrid_s = e->simgrid_s;
  } else {
    r.simgrid_s = simulated_iteration_time_s(ls, r.placement);
    ++c.simulated;
    c.journal.record(key, {r.method, r.estimate_s, r.simgrid_s, {}, ""});
  }
  say(c.o, "plan: " + r.layout.name() + " " + r.method + ": SimGrid " + seconds_text(r.simgrid_s) + " (estimate " +
               seconds_text(r.estimate_s) + ")");
}

/** A method's placement of a finalist (journalled). @throws InputError when the method fails. */
Placement method_placement(PlanContext& c, const Scenario& ls, const PlanRow& greedy, const std::string& m,
                           const std::string& key) {
  if (const JournalEntry* e = c.journal.find(key)) {
    if (!e->note.empty()) throw InputError(InputError::Preformatted{}, "", 0, "", e->note);
    return e->placement;
  }
  try {
    Placement p;
    if (m == "search") {
      // The method's own placer, in this process: it starts from greedy's placement too, and the SimGrid time the
      // plan has for that placement spares the search one run.
      VerifiedSearchOptions vo;
      const long budget = c.o.method_options.budget;
      vo.total_evaluations = budget > 0 ? budget : plan_search_budget(ls.only_job().par.ranks());
      if (std::isfinite(greedy.simgrid_s)) vo.known_simgrid.emplace_back(greedy.placement, greedy.simgrid_s);
      if (c.by_cost) {  // the finalist's cheapest greedy placement (greedy-cheapest where it won) starts the search
        vo.objective_of = cost_objective(ls);
        vo.start = greedy.placement;
      }
      p = VerifiedSearchPlacer(vo).place(ls);
    } else {
      p = compute_placement(ls, m, c.o.method_options).placement;
    }
    c.journal.record(key, {m, NAN, NAN, p, ""});
    return p;
  } catch (const Interrupted&) {
    throw;
  } catch (const InputError& e) {
    c.journal.record(key, {m, NAN, NAN, {}, e.what()});
    throw;
  }
}

/** Step 5 for one finalist: a row per method, its placement estimated and (with SimGrid) simulated. */
std::vector<PlanRow> place_with_methods(PlanContext& c, const PlanRow& greedy) {
  const Scenario ls = with_layout(c.s, greedy.layout);
  const Evaluator ev(ls);
  std::vector<PlanRow> extra;
  for (const std::string& m : c.o.methods) {
    check_interrupt("placement");
    say(c.o, "plan: " + greedy.layout.name() + ": placing with " + m);
    PlanRow r = greedy;
    r.method = m;
    r.simgrid_s = NAN;
    try {
      r.placement = method_placement(c, ls, greedy, m, "method " + greedy.layout.name() + " " + m);
      r.estimate_s = ev.iteration_time_s(r.placement);
      r.cost = placement_cost(ls, r.placement);
      if (c.o.simgrid) simulate_row(c, ls, r);
    } catch (const Interrupted&) {
      throw;
    } catch (const InputError& e) {
      r.placement = Placement{};
      r.estimate_s = NAN;
      r.cost = PlacementCost{};
      r.pruned = m + " failed: " + e.what();
    }
    extra.push_back(std::move(r));
  }
  return extra;
}

/** Step 4 then 5: the finalists' greedy placements simulated, then the `searched` best of them placed by the
 *  methods (a finalist already at its compute-only bound is not searched). @return the methods' rows by finalist
 *  row index. */
std::map<int, std::vector<PlanRow>> finish_finalists(PlanContext& c, const std::vector<int>& chosen,
                                                     std::vector<PlanRow>& rows) {
  if (c.o.simgrid)
    for (int f : chosen) simulate_row(c, with_layout(c.s, rows[f].layout), rows[f]);
  std::vector<int> order = chosen;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return score(c, rows[a]) < score(c, rows[b]); });
  order.resize(std::min(order.size(), static_cast<std::size_t>(std::max(c.o.searched, 0))));
  std::map<int, std::vector<PlanRow>> extra;
  for (int f : order) {
    if (!c.by_cost && c.o.simgrid && rows[f].simgrid_s <= (1 + kSearchSkipGap) * rows[f].lower_bound_s) {
      say(c.o, "plan: " + rows[f].layout.name() + ": greedy's SimGrid time is within " +
                   std::to_string(kSearchSkipGap * 100).substr(0, 3) + "% of the compute-only bound, not searched");
      continue;
    }
    extra[f] = place_with_methods(c, rows[f]);
  }
  return extra;
}

/** Throws unless some layout is feasible. */
void require_feasible(const Scenario& s, const PlanReport& report, const std::vector<PlanRow>& rows) {
  if (report.feasible > 0) return;
  const std::string why = rows.empty() ? "no layout divides the model and the batch within the plan's bounds"
                                       : "every layout fails (first: " + rows[0].pruned + ")";
  throw InputError(s.file, 0, "job.parallelism", why + " (expected a job that fits some layout)");
}

}  // namespace

long plan_search_budget(int ranks) {
  constexpr long kDefault = 20000, kFloor = 2000, kFullUpTo = 64;
  if (ranks <= kFullUpTo) return kDefault;
  return std::max(kFloor, kDefault * kFullUpTo / ranks);
}

PlanReport run_plan(const Scenario& s, const PlanOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  PlanJournal journal = o.journal.empty() ? PlanJournal() : PlanJournal(o.journal, o.journal_identity);
  PlanContext c{s, o, journal, s.plan.objective == "cost"};
  if (journal.resumed() > 0)
    say(o, "plan: resuming: " + std::to_string(journal.resumed()) + " finished steps read from " + o.journal);
  PlanReport report;
  std::vector<PlanRow> rows = bounded_rows(s, enumerate_layouts(s));
  report.layouts = static_cast<int>(rows.size());
  for (const PlanRow& r : rows) report.feasible += r.pruned.empty() ? 1 : 0;
  say(o, "plan: " + std::to_string(report.layouts) + " layouts, " + std::to_string(report.feasible) + " feasible");
  require_feasible(s, report, rows);
  report.placed = screen(c, rows);
  const std::vector<int> chosen = finalists(c, rows);
  if (chosen.empty()) throw InputError(s.file, 0, "job.parallelism", "no layout could be placed (expected one)");
  std::map<int, std::vector<PlanRow>> extra = finish_finalists(c, chosen, rows);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    report.rows.push_back(std::move(rows[i]));
    for (PlanRow& e : extra[static_cast<int>(i)]) report.rows.push_back(std::move(e));
  }
  for (std::size_t i = 0; i < report.rows.size(); ++i) {
    const PlanRow& r = report.rows[i];
    const bool ranked = r.pruned.empty() && !r.placement.gpu_of_rank.empty() && std::isfinite(score(c, r));
    if (ranked && (report.best < 0 || score(c, r) < score(c, report.chosen()))) report.best = static_cast<int>(i);
  }
  if (report.best < 0) throw InputError(s.file, 0, "job.parallelism", "no finalist could be placed (expected one)");
  report.simulated = c.simulated;
  report.resumed = journal.resumed();
  report.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return report;
}

}  // namespace hulk
