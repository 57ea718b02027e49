// `hulk gnn families`: parses the options, runs sim/lab/gnn_families_run.hpp (the learned placer per held-out
// family against greedy and the SimGrid-checked search, with its ablations) and prints each family's table and the
// checks over all of them.
#include <iostream>
#include <memory>
#include <stdexcept>

#include "tools/cli/comma_list.hpp"
#include "tools/cli/option_ranges.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/gnn_backend.hpp"
#include "sim/core/errors.hpp"
#include "sim/lab/gnn_families_run.hpp"

namespace hulk::cli {
namespace {

struct FamiliesArgs {
  FamiliesRunOptions run = [] {
    FamiliesRunOptions o;
    o.options = cli_method_options();
    o.learned = gnn_learned_backend();
    return o;
  }();
  std::string families = "in-family,larger,wan-host,multi-job,paper";
  std::string rows;  ///< comma-separated learned rows to run ("" = all)
};

void run_families_command(FamiliesArgs a) {
  if (a.run.family.count < 1) throw InputError("", 0, "--count", "expected at least 1 scenario per family");
  a.run.families = comma_list(a.families, "--families", "family names");
  if (!a.rows.empty()) a.run.rows = comma_list(a.rows, "--rows", "row names");
  const FamiliesReport r = run_gnn_families(
      a.run, [](const std::string& line) { std::cerr << line << "\n"; },
      [](const FamilyFigures& f) { std::cout << family_table(f) << "\n" << std::flush; });
  std::cout << family_criteria(r.figures);
  if (!r.failed.empty()) {
    std::string list;
    for (const std::string& x : r.failed) list += "\n  " + x;
    throw std::runtime_error(std::to_string(r.failed.size()) +
                             " scenario(s) failed and are left out of the figures:" + list);
  }
}

}  // namespace

void register_gnn_families_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("families", "Evaluate the GNN per held-out family against greedy and search");
  auto a = std::make_shared<FamiliesArgs>();
  cmd->add_option("--count", a->run.family.count, "generated scenarios per family")->capture_default_str();
  cmd->add_option("--seed", a->run.family.seed, "seed of the families' scenarios (each family its own stream)")
      ->capture_default_str()
      ->check(seed_check());
  cmd->add_option("--max-gpus", a->run.family.max_gpus, "the training family's largest platform (GPUs)")
      ->capture_default_str()
      ->check(sampled_gpus_range());
  cmd->add_option("--families", a->families, "comma-separated: in-family, larger, wan-host, multi-job, paper")
      ->capture_default_str();
  cmd->add_option("--paper", a->run.family.paper_dir,
                  "folder of the paper family's scenarios (default: scenarios/paper)");
  cmd->add_option("--model", a->run.model, "GNN model file (default: " + default_model_path() + ")");
  cmd->add_option("--challenger", a->run.challenger,
                  "another model file, one more row (challenger) with gnn's decoder on the same scenarios");
  cmd->add_option("--budget", a->run.options.budget, "search budget in evaluations (0 = search's own, 20000)")
      ->capture_default_str()
      ->check(budget_range());
  cmd->add_option("--rows", a->rows,
                  "comma-separated learned rows to run (default: all; must include gnn; equal-budget always runs)");
  cmd->add_option("--untrained-seed", a->run.untrained_seed,
                  "seed of the untrained model (as hulk gnn train --epochs 0)")
      ->capture_default_str()
      ->check(seed_check());
  cmd->add_option("--guided-anneal", a->run.guided_anneal,
                  "estimates of the scorer-guided annealing in every row that runs it (default: the method's)")
      ->check(number_range(0, 1000000));
  cmd->add_option("--blind-anneal", a->run.blind_anneal,
                  "evaluations of the blind annealing in every row that runs it, 0 = none (default: the method's)")
      ->check(number_range(0, 1000000));
  cmd->add_option("--walk-moves", a->run.walk_moves,
                  "in every row with greedy's candidate (not model-only, no-greedy): the scorer's walk of this many "
                  "evaluated prefixes in place of the decoded views, 0 = the views (default: the views)")
      ->check(number_range(0, 1000));
  cmd->add_flag("--walk-reorder", a->run.walk_reorder,
                "with --walk-moves: the walk's answer's stage reorderings, TP ring re-chaining and DP ring "
                "re-ordering (each kept if faster) before its local search");
  cmd->add_option("--out", a->run.out, "per-scenario CSV of every time");
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
  cmd->callback([a] { run_families_command(*a); });
}

}  // namespace hulk::cli
