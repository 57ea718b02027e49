#include "sim/lab/gnn_family_rows.hpp"

#include <algorithm>

#include "sim/core/errors.hpp"

namespace hulk {
namespace {

/** A row of the gnn method (the scorer-guided annealing in the placer, the blind one from the alternative start:
 *  gnn_method_anneal_options) but for what the caller changes. */
LearnedRow row(const std::string& name) {
  LearnedRow r;
  r.name = name;
  r.anneal = gnn_method_anneal_options();
  return r;
}

LearnedRow untrained_copy(LearnedRow r, const std::string& name) {
  r.name = name;
  r.untrained = true;
  return r;
}

/** The rows that take one step of the method away (or change it), in the table's order after gnn and untrained. */
std::vector<LearnedRow> ablations() {
  LearnedRow argmax = row("argmax");
  argmax.decoder.candidates = 1;  // the argmax decode, and greedy's placement when the evaluator finds it faster
  LearnedRow no_greedy = row("no-greedy");
  no_greedy.decoder.greedy_candidate = false;
  no_greedy.decoder.reference_prior = false;
  LearnedRow one_view = row("one-view");
  one_view.decoder.prior_free_view = false;  // the decodes of the scores with greedy's prior only
  LearnedRow no_polish = row("no-polish");
  no_polish.decoder.polish = 0;  // the sampling decoder's answer (and greedy's) as they are
  no_polish.decoder.stage_orders = 0;
  no_polish.decoder.tp_rings = false;
  no_polish.decoder.guided_anneal = 0;
  no_polish.anneal.evaluations = 0;
  LearnedRow whole_ranking = row("whole-ranking");
  whole_ranking.decoder.polish_top_k = 0;  // every exchange of the scorer's ranking tried, not its first few
  LearnedRow no_anneal = row("no-anneal");
  no_anneal.decoder.guided_anneal = 0;  // the score-guided exchanges, no annealing (guided or blind) after them
  no_anneal.anneal.evaluations = 0;
  LearnedRow no_reorder = row("no-reorder");
  no_reorder.decoder.stage_orders = 0;  // everything but the stage reorderings (sim/place/stage_order.hpp)
  LearnedRow no_rechain = row("no-rechain");
  no_rechain.decoder.tp_rings = false;  // everything but the TP rings' re-chaining (sim/place/tp_ring_order.hpp)
  LearnedRow no_rerun = row("no-rerun");
  no_rerun.anneal.reruns = 0;  // one blind annealing run from the alternative start
  LearnedRow no_alt_start = row("no-alt-start");
  no_alt_start.anneal.alternative_starts = false;  // the guided annealing from the learned placement only
  LearnedRow alt_always = row("alt-always");
  alt_always.anneal.anneal_slower_alternative = true;  // a candidate change, measured on fresh seeds before adopting
  return {argmax,     no_greedy,  one_view, no_polish,    whole_ranking, no_anneal,
          no_reorder, no_rechain, no_rerun, no_alt_start, alt_always};
}

}  // namespace

std::vector<LearnedRow> learned_rows(const std::string& challenger) {
  std::vector<LearnedRow> out = {row("gnn"), untrained_copy(row("gnn"), "untrained")};
  for (LearnedRow& r : ablations()) out.push_back(std::move(r));
  // The guided annealing alone (gnn/guided_anneal.hpp): no blind annealing, no alternative start.
  LearnedRow guided = row("guided");
  guided.anneal.evaluations = 0;
  out.push_back(guided);
  out.push_back(untrained_copy(guided, "guided-untrained"));
  // The blind annealing from the learned placement as well, after the guided one (guided-then-blind), or in its
  // place (blind: no weight decides where the annealing's evaluations go).
  LearnedRow guided_blind = row("guided-then-blind");
  guided_blind.anneal = LearnedAnnealOptions{};
  out.push_back(guided_blind);
  out.push_back(untrained_copy(guided_blind, "guided-then-blind-untrained"));
  LearnedRow blind = row("blind");
  blind.decoder.guided_anneal = 0;
  blind.anneal = LearnedAnnealOptions{};
  out.push_back(blind);
  out.push_back(untrained_copy(blind, "blind-untrained"));
  // The model alone: the move scorer's policy from greedy's placement (or, without a move scorer, greedy's placement
  // as its reference and prior, one pass, the argmax decode); nothing evaluated, so no step after it can hide what
  // the weights do (trained against fresh weights), and the least work any placement that runs greedy and the model
  // does (the search's time over it bounds search/x).
  LearnedRow model_only = row("model-only");
  model_only.decoder = least_work_decoder();
  model_only.decoder.stage_orders = 0;
  model_only.decoder.tp_rings = false;
  model_only.anneal.evaluations = 0;
  out.push_back(model_only);
  out.push_back(untrained_copy(model_only, "model-only-untrained"));
  if (!challenger.empty()) {  // gnn's decoder on another model file
    LearnedRow c = row("challenger");
    c.model = challenger;
    out.push_back(c);
  }
  return out;
}

std::vector<LearnedRow> selected_rows(const std::vector<LearnedRow>& all, const std::vector<std::string>& wanted) {
  if (wanted.empty()) return all;
  for (const std::string& w : wanted)
    if (std::none_of(all.begin(), all.end(), [&](const LearnedRow& r) { return r.name == w; }))
      throw InputError("", 0, "--rows", "unknown row '" + w + "' (expected learned rows such as gnn, untrained, "
                                        "model-only, model-only-untrained, no-polish)");
  if (std::find(wanted.begin(), wanted.end(), "gnn") == wanted.end())
    throw InputError("", 0, "--rows", "the rows must include gnn (the figures are measured against it)");
  std::vector<LearnedRow> out;
  for (const LearnedRow& r : all)
    if (r.name == "challenger" || std::find(wanted.begin(), wanted.end(), r.name) != wanted.end()) out.push_back(r);
  return out;
}

std::vector<LearnedRow> with_budgets(std::vector<LearnedRow> rows, const std::optional<int>& guided_anneal,
                                     const std::optional<int>& blind_anneal) {
  for (LearnedRow& r : rows) {
    if (guided_anneal && r.decoder.guided_anneal.value_or(1) != 0) r.decoder.guided_anneal = *guided_anneal;
    if (blind_anneal && r.anneal.evaluations > 0) r.anneal.evaluations = *blind_anneal;
  }
  return rows;
}

std::vector<LearnedRow> with_walk(std::vector<LearnedRow> rows, const std::optional<int>& walk_moves, bool reorder) {
  if (!walk_moves) return rows;
  for (LearnedRow& r : rows)
    if (r.decoder.greedy_candidate.value_or(true)) {
      r.decoder.walk_moves = *walk_moves;
      if (reorder) r.decoder.walk_reorder = true;
    }
  return rows;
}

LearnedAnnealOptions row_anneal(const LearnedRow& row) {
  LearnedAnnealOptions anneal = row.anneal;
  anneal.stage_orders = row.decoder.stage_orders.value_or(anneal.stage_orders);
  anneal.tp_rings = row.decoder.tp_rings.value_or(anneal.tp_rings);
  return anneal;
}

}  // namespace hulk
