#include "sim/lab/gnn_eval_run.hpp"

#include <chrono>
#include <filesystem>

#include "sim/core/atomic_file.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/subprocess.hpp"
#include "sim/evaluate/pipeline_memo.hpp"
#include "sim/methods/gnn_method.hpp"
#include "sim/scenario/scenario_json.hpp"

namespace hulk {
namespace {

/** Every case's placement, computed in one child: [{ok, placement, ms} | {ok: false, error}]. */
nlohmann::json place_in_child(const GnnEvalOptions& o) {
  return run_in_child([&]() {
    const std::unique_ptr<Placer> placer = o.make_placer();
    nlohmann::json out = nlohmann::json::array();
    for (const HeldOutCase& c : o.cases) {
      PipelineMemo::process().clear();  // timed cold, as in a process of its own
      const auto t0 = std::chrono::steady_clock::now();
      try {
        const Placement p =
            anneal_learned_placement(c.scenario, placer->place(c.scenario), gnn_method_anneal_options());
        const double ms = 1e3 * std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        out.push_back({{"ok", true}, {"placement", placement_slots_to_json(p)}, {"ms", ms}});
      } catch (const InputError& e) {
        out.push_back({{"ok", false}, {"error", e.what()}});
      }
    }
    return out;
  });
}

LearnedAnswer answer_of(const nlohmann::json& placed) {
  LearnedAnswer a;
  a.ok = placed["ok"].get<bool>();
  if (a.ok) {
    a.placement = placement_slots_from_json(placed["placement"], "<gnn>", "placement");
    a.inference_ms = placed["ms"].get<double>();
  } else {
    a.error = placed["error"].get<std::string>();
  }
  return a;
}

}  // namespace

GnnEvalReport run_gnn_eval(GnnEvalOptions o, std::ostream* progress) {
  const nlohmann::json placed = place_in_child(o);
  std::vector<LearnedAnswer> answers;
  for (std::size_t i = 0; i < o.cases.size(); ++i) answers.push_back(answer_of(placed[i]));
  GnnEvalReport r;
  r.held_out = evaluate_held_out(o.cases, answers, progress);
  if (r.held_out.interrupted) {  // no summary of part of the set; the finished rows kept beside --out
    const std::string kept = o.out.empty() ? std::string() : o.out + ".partial";
    if (!kept.empty()) write_file_atomic(kept, held_out_csv(r.held_out));
    throw Interrupted(std::to_string(r.held_out.rows.size()) + " of " + std::to_string(r.held_out.total) +
                      " samples simulated" + (kept.empty() ? "" : ", their rows in " + kept) +
                      " (no summary); a rerun starts over");
  }
  r.figures = held_out_figures(r.held_out);
  if (r.figures.placed == 0) throw InputError(o.data, 0, "", "no sample could be placed by the model");
  if (!o.out.empty()) {
    write_file_atomic(o.out, held_out_csv(r.held_out));
    std::error_code stale;
    std::filesystem::remove(o.out + ".partial", stale);  // of an earlier, interrupted run
  }
  return r;
}

}  // namespace hulk
