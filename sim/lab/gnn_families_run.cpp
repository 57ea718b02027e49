#include "sim/lab/gnn_families_run.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>

#include <unistd.h>

#include "sim/core/atomic_file.hpp"
#include "sim/core/data_dir.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/subprocess.hpp"
#include "sim/evaluate/evaluation_count.hpp"
#include "sim/evaluate/jobs_evaluator.hpp"
#include "sim/evaluate/pipeline_memo.hpp"
#include "sim/lab/compare_runner.hpp"
#include "sim/scenario/scenario_json.hpp"

namespace hulk {
namespace {

namespace fs = std::filesystem;

double ms_since(std::chrono::steady_clock::time_point t0) {
  return 1e3 * std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/** Every row's placement of one scenario, its in-process time (ms) and its evaluator calls, computed in a torch
 *  child. The child first places the scenario once untimed, so that torch's one-time start (threads, allocator) is
 *  in no row's time. */
nlohmann::json learned_placements(const Scenario& s, const std::vector<LearnedRow>& rows, const std::string& model,
                                  const FamiliesRunOptions& o) {
  if (o.learned.prepare) o.learned.prepare();  // loaded once here: the child inherits it, outside the timed placements
  return run_in_child([&]() {
    const std::string untrained = (fs::temp_directory_path() / ("hulk-untrained-" + std::to_string(::getpid()) +
                                                               ".pt")).string();
    o.learned.save_untrained_model(untrained, o.untrained_seed);
    nlohmann::json out = nlohmann::json::array();
    bool warmed_up = false;
    for (const LearnedRow& row : rows) {
      const std::string path = row.untrained ? untrained : row.model.empty() ? model : row.model;
      const std::unique_ptr<Placer> placer = o.learned.make_placer(path, row.decoder);
      const auto place = [&]() {
        const LearnedPlacer learned = [&](const Scenario& x, const std::string&, const Placement* greedy) {
          return place_learned(*placer, x, greedy);
        };
        const Placement placed = learned_placement(s, path, learned, row.decoder.greedy_candidate.value_or(true));
        return anneal_learned_placement(s, placed, row_anneal(row));
      };
      if (!warmed_up) place(), warmed_up = true;
      PipelineMemo::process().clear();  // timed cold, as in a process of its own
      const long long calls_before = evaluator_calls();
      const auto t0 = std::chrono::steady_clock::now();
      const Placement p = place();
      const double ms = ms_since(t0);
      out.push_back({{"placement", placement_slots_to_json(p)}, {"ms", ms},
                     {"evaluator_calls", evaluator_calls() - calls_before}});
    }
    fs::remove(untrained);
    return out;
  });
}

/** SimGrid time of a placement, reusing the time of an equal placement already simulated for the scenario. */
double simulated_s(const Scenario& s, const Placement& p, std::vector<std::pair<Placement, double>>& known) {
  for (const auto& [q, t] : known)
    if (q.gpu_of_rank == p.gpu_of_rank) return t;
  MethodResult r;
  r.placement = p;
  simulate_placement(s, r);
  if (!r.ok) throw InputError("", 0, "", s.name + ": a learned placement failed in SimGrid: " + r.error);
  known.emplace_back(p, r.iteration_time_s);
  return r.iteration_time_s;
}

/** A method's placement (in a child, with its wall time) and its SimGrid time. @throws InputError if it fails. */
MethodResult placed_and_simulated(const Scenario& s, const std::string& method, const MethodOptions& options) {
  const PlacementOutcome o = compute_placement(s, method, options);
  MethodResult r;
  r.method = method;
  r.placement = o.placement;
  r.method_wall_s = o.wall_s;
  simulate_placement(s, r);
  if (!r.ok) throw InputError("", 0, "", s.name + ": " + method + " failed in SimGrid: " + r.error);
  return r;
}

/** The learned rows' and the equal-budget row's times of one scenario, into `c`, whose greedy and search times are
 *  set; `known` holds the placements SimGrid has timed. @return the first row's placement (none without rows). */
std::optional<Placement> learned_times(const Scenario& s, const std::vector<LearnedRow>& rows, const std::string& model,
                   const FamiliesRunOptions& o, const Placement& greedy,
                   std::vector<std::pair<Placement, double>>& known, FamilyCase& c) {
  const nlohmann::json placed = learned_placements(s, rows, model, o);
  for (std::size_t k = 0; k < placed.size(); ++k) {
    const Placement p = placement_slots_from_json(placed[k]["placement"], "<gnn>", "placement");
    c.variant_s.push_back(simulated_s(s, p, known));
    c.variant_ms.push_back(placed[k]["ms"].get<double>());
    if (rows[k].name == "gnn") c.gnn_evaluator_calls = placed[k]["evaluator_calls"].get<long long>();
  }
  // Blind moves at the gnn method's cost: the annealing from greedy's placement with at most as many estimates.
  const auto t0 = std::chrono::steady_clock::now();
  const Placement blind = equal_budget_placement(s, greedy, c.gnn_evaluator_calls, &c.equal_budget_evaluator_calls);
  c.variant_ms.push_back(ms_since(t0));
  c.variant_s.push_back(simulated_s(s, blind, known));
  if (placed.empty()) return std::nullopt;
  return placement_slots_from_json(placed[0]["placement"], "<gnn>", "placement");
}

/** One scenario's row: greedy and the search (SimGrid in children), every learned row (one torch child) and their
 *  SimGrid times. @return false, with *failure set, if greedy or the search fails on it (a bug: sampled scenarios
 *  are valid), which leaves it out of the figures. @throws Interrupted. */
bool family_case(const Scenario& s, const std::vector<LearnedRow>& rows, const std::string& model,
                 const FamiliesRunOptions& o, FamilyCase& c, std::string* failure) {
  MethodResult greedy, search;
  try {
    greedy = placed_and_simulated(s, "greedy", o.options);
    search = placed_and_simulated(s, "search", o.options);
  } catch (const Interrupted&) {
    throw;
  } catch (const std::exception& e) {
    if (interrupt_requested()) throw;  // a child cut short by the interrupt: not a failure of the scenario
    *failure = e.what();
    return false;
  }
  c.name = s.name;
  c.greedy_s = greedy.iteration_time_s;
  c.search_s = search.iteration_time_s;
  c.search_wall_s = search.method_wall_s;
  std::vector<std::pair<Placement, double>> known = {{greedy.placement, c.greedy_s}, {search.placement, c.search_s}};
  const std::optional<Placement> first = learned_times(s, rows, model, o, greedy.placement, known, c);
  // What the evaluator the placers trust made of the placements chosen (the gnn's is the first row's).
  const JobsEvaluator ev(s);
  c.search_estimate_s = ev.objective_s(search.placement);
  if (first) c.first_estimate_s = ev.objective_s(*first);
  return true;
}

std::string case_line(int done, int total, const std::string& family, const Scenario& s, const FamilyCase& c) {
  char times[160];
  std::snprintf(times, sizeof times, "%d GPUs, greedy %.4g s, search %.4g s (%.1f s), gnn %.4g s",
                s.platform.total_gpus(), c.greedy_s, c.search_s, c.search_wall_s, c.variant_s.front());
  return "gnn-families: [" + std::to_string(done) + "/" + std::to_string(total) + "] " + family + " " + s.name + ": " +
         times;
}

}  // namespace

FamiliesReport run_gnn_families(const FamiliesRunOptions& o, const std::function<void(const std::string&)>& progress,
                                const std::function<void(const FamilyFigures&)>& on_family) {
  FamilyOptions family = o.family;
  if (family.paper_dir.empty()) family.paper_dir = data_path("scenarios/paper");
  const std::string model = model_or_committed(o.model);
  std::vector<std::vector<Scenario>> scenarios;
  for (const std::string& f : o.families) scenarios.push_back(family_scenarios(f, family));
  const std::vector<LearnedRow> rows =
      with_walk(with_budgets(selected_rows(learned_rows(o.challenger), o.rows), o.guided_anneal, o.blind_anneal),
                o.walk_moves, o.walk_reorder);
  std::vector<std::string> names;
  for (const LearnedRow& r : rows) names.push_back(r.name);
  names.push_back("equal-budget");  // computed in this process after the learned rows (learned_times)

  // The CSV is rewritten after each scenario, so an interrupted run keeps what finished.
  std::vector<std::vector<FamilyCase>> cases(o.families.size());
  FamiliesReport report;
  int total = 0, done = 0;
  for (const auto& list : scenarios) total += static_cast<int>(list.size());
  try {
    for (std::size_t f = 0; f < o.families.size(); ++f) {
      for (const Scenario& s : scenarios[f]) {
        FamilyCase c;
        std::string failure;
        if (!family_case(s, rows, model, o, c, &failure)) {
          report.failed.push_back(o.families[f] + " " + s.name + ": " + failure);
          progress("gnn-families: [" + std::to_string(++done) + "/" + std::to_string(total) + "] " + o.families[f] +
                   " " + s.name + ": FAILED, left out of the figures: " + failure);
          continue;
        }
        cases[f].push_back(c);
        if (!o.out.empty()) write_file_atomic(o.out, family_csv(o.families, cases, names));
        progress(case_line(++done, total, o.families[f], s, c));
      }
      report.figures.push_back(family_figures(o.families[f], cases[f], names));
      on_family(report.figures.back());
    }
  } catch (const Interrupted&) {  // say what is kept: the CSV holds every finished scenario's row
    throw Interrupted(std::to_string(done) + " of " + std::to_string(total) + " scenarios done" +
                      (o.out.empty() ? " (no --out: nothing written)" : ", their rows in " + o.out) +
                      "; no figures for the unfinished families; a rerun starts over");
  }
  return report;
}

}  // namespace hulk
