#pragma once
/** @file gnn_eval_run.hpp
 *  @brief `hulk gnn eval`: the learned placer on a held-out data set. Its placements are all computed in one child
 *  process (torch runs there only), each followed by the gnn method's short annealing and timed cold; then each is
 *  simulated by SimGrid (held_out_eval.hpp). The placer comes from the program (sim/ may not depend on gnn/). */
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/lab/held_out_eval.hpp"
#include "sim/place/placer.hpp"

namespace hulk {

/** @brief The evaluation's inputs. */
struct GnnEvalOptions {
  std::vector<HeldOutCase> cases;  ///< the held-out samples, in data set order
  std::string data;                ///< the data set folder (named in errors)
  /** @brief Makes the learned placer (called once, in the child process). */
  std::function<std::unique_ptr<Placer>()> make_placer;
  std::string out;  ///< per-sample CSV to write ("" = none)
};

/** @brief The simulated cases and their figures. */
struct GnnEvalReport {
  HeldOutReport held_out;
  HeldOutFigures figures;
};

/** @brief Places every case, simulates the placements, writes options.out (and removes the OUT.partial of an earlier,
 *  interrupted run). progress gets the simulations' lines (may be null).
 *  @throws InputError if no case could be placed; Interrupted (the finished rows kept in OUT.partial) on
 *  SIGINT/SIGTERM. */
GnnEvalReport run_gnn_eval(GnnEvalOptions options, std::ostream* progress);

}  // namespace hulk
