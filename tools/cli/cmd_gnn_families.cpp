// `hulk gnn families`: the learned placer per held-out family (sim/lab/gnn_families.hpp), against greedy and the
// SimGrid-checked search, with its ablations; every time is SimGrid's. Torch runs in one child (all placements of
// every variant), SimGrid in children of this process.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>

#include <unistd.h>

#include "tools/cli/comma_list.hpp"
#include "tools/cli/option_ranges.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/gnn_backend.hpp"
#include "tools/cli/gnn_plugin_loader.hpp"
#include "sim/evaluate/evaluation_count.hpp"
#include "sim/evaluate/pipeline_memo.hpp"
#include "sim/core/data_dir.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/core/subprocess.hpp"
#include "sim/lab/compare_runner.hpp"
#include "sim/evaluate/jobs_evaluator.hpp"
#include "sim/lab/gnn_families.hpp"
#include "sim/methods/gnn_method.hpp"
#include "sim/report/outputs.hpp"
#include "sim/scenario/scenario_json.hpp"

namespace hulk::cli {
namespace {

namespace fs = std::filesystem;

struct FamiliesArgs {
  FamilyOptions family;
  std::string families = "in-family,larger,wan-host,multi-job,paper";
  std::string model, challenger, out;
  std::string rows;  ///< comma-separated learned rows to run ("" = all)
  std::uint64_t untrained_seed = 1;
  MethodOptions options = cli_method_options();
};

/** A learned variant: which model and which decoder. */
struct Variant {
  std::string name;
  bool untrained = false;
  gnn::SamplingOptions sampling;
  std::string model;  ///< "" = the --model file
  LearnedAnnealOptions anneal;  ///< the method's annealing after the placer (gnn_method.hpp); stage_orders and
                                ///< tp_rings follow `sampling`
};

std::vector<Variant> variants(const std::string& challenger) {
  // Every row is the gnn method (the scorer-guided annealing in the placer, the blind one from the alternative
  // start: gnn_method_anneal_options) but for what it changes.
  const auto row = [](const std::string& name) { return Variant{name, false, {}, "", gnn_method_anneal_options()}; };
  Variant gnn = row("gnn");
  Variant untrained = gnn;
  untrained.name = "untrained";
  untrained.untrained = true;
  Variant argmax = row("argmax");
  argmax.sampling.candidates = 1;  // the argmax decode, and greedy's placement when the evaluator finds it faster
  Variant no_greedy = row("no-greedy");
  no_greedy.sampling.greedy_candidate = false;
  no_greedy.sampling.reference_prior = false;
  Variant one_view = row("one-view");
  one_view.sampling.prior_free_view = false;  // the decodes of the scores with greedy's prior only
  Variant no_polish = row("no-polish");
  no_polish.sampling.polish = 0;  // the sampling decoder's answer (and greedy's) as they are
  no_polish.sampling.stage_orders = 0;
  no_polish.sampling.tp_rings = false;
  no_polish.sampling.guided_anneal = 0;
  no_polish.anneal.evaluations = 0;
  Variant whole_ranking = row("whole-ranking");
  whole_ranking.sampling.polish_top_k = 0;  // every exchange of the scorer's ranking tried, not its first few
  Variant no_anneal = row("no-anneal");
  no_anneal.sampling.guided_anneal = 0;  // the score-guided exchanges, no annealing (guided or blind) after them
  no_anneal.anneal.evaluations = 0;
  Variant no_reorder = row("no-reorder");
  no_reorder.sampling.stage_orders = 0;  // everything but the stage reorderings (sim/place/stage_order.hpp)
  Variant no_rechain = row("no-rechain");
  no_rechain.sampling.tp_rings = false;  // everything but the TP rings' re-chaining (sim/place/tp_ring_order.hpp)
  Variant no_rerun = row("no-rerun");
  no_rerun.anneal.reruns = 0;  // one blind annealing run from the alternative start
  Variant no_alt_start = row("no-alt-start");
  no_alt_start.anneal.alternative_starts = false;  // the guided annealing from the learned placement only
  Variant alt_always = row("alt-always");
  alt_always.anneal.anneal_slower_alternative = true;  // a candidate change, measured on fresh seeds before adopting
  // The guided annealing alone: no blind annealing, no alternative start.
  Variant guided = row("guided");
  guided.anneal.evaluations = 0;
  Variant guided_untrained = guided;
  guided_untrained.name = "guided-untrained";
  guided_untrained.untrained = true;
  // The blind annealing from the learned placement as well, after the guided one (guided-then-blind), or in its
  // place (blind: no weight decides where the annealing's evaluations go).
  Variant guided_blind = row("guided-then-blind");
  guided_blind.anneal = LearnedAnnealOptions{};
  Variant guided_blind_untrained = guided_blind;
  guided_blind_untrained.name = "guided-then-blind-untrained";
  guided_blind_untrained.untrained = true;
  Variant blind = row("blind");
  blind.sampling.guided_anneal = 0;
  blind.anneal = LearnedAnnealOptions{};
  Variant blind_untrained = blind;
  blind_untrained.name = "blind-untrained";
  blind_untrained.untrained = true;
  // The model alone: the move scorer's policy from greedy's placement (or, without a move scorer, greedy's placement
  // as its reference and prior, one pass, the argmax decode); nothing evaluated,
  // so no step after it can hide what the weights do (trained against fresh weights), and the least work any
  // placement that runs greedy and the model does (the search's time over it bounds search/x).
  Variant model_only = row("model-only");
  model_only.sampling.candidates = 1;
  model_only.sampling.greedy_candidate = false;
  model_only.sampling.stage_orders = 0;
  model_only.sampling.tp_rings = false;
  model_only.anneal.evaluations = 0;
  Variant model_only_untrained = model_only;
  model_only_untrained.name = "model-only-untrained";
  model_only_untrained.untrained = true;
  std::vector<Variant> out = {gnn,        untrained,    argmax,     no_greedy,  one_view,
                              no_polish,  whole_ranking, no_anneal, no_reorder, no_rechain, no_rerun,
                              no_alt_start, alt_always, guided, guided_untrained, guided_blind,
                              guided_blind_untrained, blind, blind_untrained, model_only,
                              model_only_untrained};
  // The challenger: another model file with gnn's decoder.
  if (!challenger.empty()) out.push_back(Variant{"challenger", false, {}, challenger, gnn_method_anneal_options()});
  return out;
}

/** The variants named in `rows` (comma-separated, in the table's order; "" = all), and the challenger when there is
 *  one. The first must stay `gnn`: the figures and the evaluator's error are of the first variant.
 *  @throws InputError for an unknown name or no gnn. */
std::vector<Variant> selected_variants(const std::vector<Variant>& all, const std::string& rows) {
  if (rows.empty()) return all;
  const std::vector<std::string> wanted = comma_list(rows, "--rows", "row names");
  for (const std::string& w : wanted)
    if (std::none_of(all.begin(), all.end(), [&](const Variant& v) { return v.name == w; }))
      throw InputError("", 0, "--rows", "unknown row '" + w + "' (expected learned rows such as gnn, untrained, "
                                        "model-only, model-only-untrained, no-polish)");
  if (std::find(wanted.begin(), wanted.end(), "gnn") == wanted.end())
    throw InputError("", 0, "--rows", "the rows must include gnn (the figures are measured against it)");
  std::vector<Variant> out;
  for (const Variant& v : all)
    if (v.name == "challenger" || std::find(wanted.begin(), wanted.end(), v.name) != wanted.end()) out.push_back(v);
  return out;
}

/** Every variant's placement of one scenario, and its in-process time (ms), computed in a torch child. The child
 *  first places the scenario once untimed, so that torch's one-time start (threads, allocator) is in no variant's
 *  time. */
nlohmann::json learned_placements(const Scenario& s, const std::vector<Variant>& vs, const std::string& model,
                                  std::uint64_t untrained_seed) {
  gnn_plugin();  // loaded once here: the child inherits it, outside the timed placements
  return run_in_child([&]() {
    const std::string untrained = (fs::temp_directory_path() / ("hulk-untrained-" + std::to_string(::getpid()) +
                                                               ".pt")).string();
    gnn_plugin().save_untrained_model(untrained, untrained_seed);
    nlohmann::json out = nlohmann::json::array();
    bool warmed_up = false;
    for (const Variant& v : vs) {
      const std::string path = v.untrained ? untrained : v.model.empty() ? model : v.model;
      const std::unique_ptr<Placer> placer = gnn_plugin().make_placer(path, v.sampling);
      const auto place = [&]() {
        const LearnedPlacer learned = [&](const Scenario& x, const std::string&, const Placement* greedy) {
          return place_learned(*placer, x, greedy);
        };
        const Placement placed = learned_placement(s, path, learned, v.sampling.greedy_candidate);
        LearnedAnnealOptions anneal = v.anneal;
        anneal.stage_orders = v.sampling.stage_orders;
        anneal.tp_rings = v.sampling.tp_rings;
        return anneal_learned_placement(s, placed, anneal);
      };
      if (!warmed_up) place(), warmed_up = true;
      PipelineMemo::process().clear();  // timed cold, as in a process of its own
      const long long calls_before = evaluator_calls();
      const auto t0 = std::chrono::steady_clock::now();
      const Placement p = place();
      const double ms = 1e3 * std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
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

/** One scenario's row: greedy and the search (SimGrid in children), every learned variant (one torch child) and
 *  their SimGrid times. @return false, with *failure set, if greedy or the search fails on it (a bug: sampled
 *  scenarios are valid), which leaves it out of the figures. @throws Interrupted. */
bool family_case(const Scenario& s, const std::vector<Variant>& vs, const std::string& model, const FamiliesArgs& a,
                 FamilyCase& c, std::string* failure) {
  MethodResult greedy, search;
  try {
    greedy = placed_and_simulated(s, "greedy", a.options);
    search = placed_and_simulated(s, "search", a.options);
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
  const nlohmann::json placed = learned_placements(s, vs, model, a.untrained_seed);
  for (std::size_t k = 0; k < placed.size(); ++k) {
    const Placement p = placement_slots_from_json(placed[k]["placement"], "<gnn>", "placement");
    c.variant_s.push_back(simulated_s(s, p, known));
    c.variant_ms.push_back(placed[k]["ms"].get<double>());
    if (vs[k].name == "gnn") c.gnn_evaluator_calls = placed[k]["evaluator_calls"].get<long long>();
  }
  // Blind moves at the gnn method's cost: the annealing from greedy's placement with at most as many estimates.
  const auto t0 = std::chrono::steady_clock::now();
  const Placement blind = equal_budget_placement(s, greedy.placement, c.gnn_evaluator_calls,
                                                 &c.equal_budget_evaluator_calls);
  c.variant_ms.push_back(1e3 * std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  c.variant_s.push_back(simulated_s(s, blind, known));
  // What the evaluator the placers trust made of the placements chosen (the gnn's is the first variant's).
  const JobsEvaluator ev(s);
  c.search_estimate_s = ev.objective_s(search.placement);
  if (!placed.empty())
    c.first_estimate_s = ev.objective_s(placement_slots_from_json(placed[0]["placement"], "<gnn>", "placement"));
  return true;
}

void run_gnn_families(FamiliesArgs a) {
  if (a.family.count < 1) throw InputError("", 0, "--count", "expected at least 1 scenario per family");
  const std::vector<std::string> families = comma_list(a.families, "--families", "family names");
  if (a.family.paper_dir.empty())
    a.family.paper_dir = data_path("scenarios/paper");
  const std::string model = model_or_committed(a.model);
  std::vector<std::vector<Scenario>> scenarios;
  for (const std::string& f : families) scenarios.push_back(family_scenarios(f, a.family));
  const std::vector<Variant> vs = selected_variants(variants(a.challenger), a.rows);
  std::vector<std::string> names;
  for (const Variant& v : vs) names.push_back(v.name);
  names.push_back("equal-budget");  // computed in this process after the learned variants (family_case)

  // Per scenario its row (family_case); the CSV is rewritten after each scenario, so an interrupted run keeps what
  // finished. A scenario on which greedy or the search fails is reported and left out, so one failure does not cost
  // the whole run; the command still fails at the end.
  std::vector<std::vector<FamilyCase>> cases(families.size());
  std::vector<std::string> failed;
  std::vector<FamilyFigures> figures;
  int total = 0, done = 0;
  for (const auto& list : scenarios) total += static_cast<int>(list.size());
  try {
    for (std::size_t f = 0; f < families.size(); ++f) {
      for (const Scenario& s : scenarios[f]) {
        FamilyCase c;
        std::string failure;
        if (!family_case(s, vs, model, a, c, &failure)) {
          failed.push_back(families[f] + " " + s.name + ": " + failure);
          std::fprintf(stderr, "gnn-families: [%d/%d] %s %s: FAILED, left out of the figures: %s\n", ++done, total,
                       families[f].c_str(), s.name.c_str(), failure.c_str());
          continue;
        }
        cases[f].push_back(c);
        if (!a.out.empty()) write_file_atomic(a.out, family_csv(families, cases, names));
        std::fprintf(stderr,
                     "gnn-families: [%d/%d] %s %s: %d GPUs, greedy %.4g s, search %.4g s (%.1f s), gnn %.4g s\n",
                     ++done, total, families[f].c_str(), s.name.c_str(), s.platform.total_gpus(), c.greedy_s,
                     c.search_s, c.search_wall_s, c.variant_s.front());
      }
      figures.push_back(family_figures(families[f], cases[f], names));
      std::cout << family_table(figures.back()) << "\n" << std::flush;
    }
  } catch (const Interrupted&) {  // say what is kept: the CSV holds every finished scenario's row
    throw Interrupted(std::to_string(done) + " of " + std::to_string(total) + " scenarios done" +
                      (a.out.empty() ? " (no --out: nothing written)" : ", their rows in " + a.out) +
                      "; no figures for the unfinished families; a rerun starts over");
  }
  std::cout << family_criteria(figures);
  if (!failed.empty()) {
    std::string list;
    for (const std::string& x : failed) list += "\n  " + x;
    throw std::runtime_error(std::to_string(failed.size()) + " scenario(s) failed and are left out of the figures:" +
                             list);
  }
}

}  // namespace

void register_gnn_families_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("families", "Evaluate the GNN per held-out family against greedy and search");
  auto a = std::make_shared<FamiliesArgs>();
  cmd->add_option("--count", a->family.count, "generated scenarios per family")->capture_default_str();
  cmd->add_option("--seed", a->family.seed, "seed of the families' scenarios (each family its own stream)")
      ->capture_default_str()
      ->check(seed_check());
  cmd->add_option("--max-gpus", a->family.max_gpus, "the training family's largest platform (GPUs)")
      ->capture_default_str()
      ->check(sampled_gpus_range());
  cmd->add_option("--families", a->families, "comma-separated: in-family, larger, wan-host, multi-job, paper")
      ->capture_default_str();
  cmd->add_option("--paper", a->family.paper_dir, "folder of the paper family's scenarios (default: scenarios/paper)");
  cmd->add_option("--model", a->model, "GNN model file (default: " + default_model_path() + ")");
  cmd->add_option("--challenger", a->challenger,
                  "another model file, one more row (challenger) with gnn's decoder on the same scenarios");
  cmd->add_option("--budget", a->options.budget, "search budget in evaluations (0 = search's own, 20000)")
      ->capture_default_str()
      ->check(budget_range());
  cmd->add_option("--rows", a->rows,
                  "comma-separated learned rows to run (default: all; must include gnn; equal-budget always runs)");
  cmd->add_option("--untrained-seed", a->untrained_seed, "seed of the untrained model (as hulk gnn train --epochs 0)")
      ->capture_default_str()
      ->check(seed_check());
  cmd->add_option("--out", a->out, "per-scenario CSV of every time");
  cmd->footer(
      "Example:\n  hulk gnn families --count 10 --seed 14001 --families in-family,larger\n"
      "Variants: gnn (the model's scores with and without greedy's prior, sampling decoder on each + greedy's\n"
      "placement as a candidate + stage reorderings + TP ring re-chaining + host exchanges, each step the move\n"
      "scorer's first 4 + an annealing of 256 estimates over host exchanges drawn from the move scorer's softmax;\n"
      "then a blind annealing from a DP-cluster placement or greedy on the fastest hosts when that is faster),\n"
      "untrained (same, fresh weights), argmax (argmax decode of each view only, then the same), no-greedy (without\n"
      "greedy's prior and candidate), one-view (the scores with greedy's prior only), no-polish (no reorderings,\n"
      "re-chaining, exchanges, alternative starts or annealing), whole-ranking (every exchange of the scorer's\n"
      "ranking tried, not its first 4), no-anneal (no annealing, guided or blind, no alternative starts),\n"
      "no-reorder (no stage reorderings), no-rechain (no TP ring re-chaining), no-rerun (one blind annealing run),\n"
      "no-alt-start (the guided annealing from the learned placement only), alt-always (gnn, and one annealing run\n"
      "from the alternative start also when it is slower than the learned placement), guided (the guided annealing\n"
      "only: no blind annealing, no alternative start), guided-untrained (the same, fresh weights),\n"
      "guided-then-blind (gnn, and the blind annealing from the guided annealing's answer too) and its -untrained,\n"
      "blind (no guided annealing: the blind annealing from the learned placement and from the alternative start)\n"
      "and blind-untrained, model-only (the move scorer's policy: from greedy's\n"
      "placement up to 16 host exchanges it ranks first, none evaluated; with a model file without a move scorer,\n"
      "greedy's prior, one pass of the model and its argmax decode; no step after it; several jobs: per job, in the\n"
      "job order\n"
      "of the best greedy placement, then round-robin's if faster, as every variant), model-only-untrained (the same,\n"
      "fresh weights), equal-budget (no model: the search's random-move annealing from greedy's placement with as\n"
      "many full evaluator estimates as gnn's placement made, where it can: the CSV's gnn_evaluator_calls and\n"
      "equal_budget_evaluator_calls).\n"
      "closed = share of greedy's gap to search closed on a log scale (geometric means; - where search gains under 1%);\n"
      "closed>=10% = its mean over the scenarios where greedy is at least 10% slower than search; ms = in-process\n"
      "placement time with the model loaded; search/x = median of search's wall time over the variant's.\n"
      "Under each family: the analytic evaluator's error on gnn's and on the search's placements (estimate / SimGrid\n"
      "- 1; the CSV's search_estimate_s and gnn_estimate_s).");
  cmd->callback([a] { run_gnn_families(*a); });
}

}  // namespace hulk::cli
