#pragma once
// Helpers shared by the plan's unit tests: scenario files written on the fly, their load error, analytic options.
#include <string>

#include "sim/core/errors.hpp"
#include "sim/methods/plan.hpp"
#include "sim/methods/scenario_loading.hpp"
#include "temp_file.hpp"

namespace hulk_test {

/** The one-line error of loading `text` as a plan scenario (written to FOLDER/bad.yaml), or "" if it loads. */
inline std::string plan_load_error(const std::string& folder, const std::string& text) {
  try {
    hulk::load_plan_scenario_file(write_temp_file(folder, "bad.yaml", text));
  } catch (const hulk::InputError& e) {
    return e.what();
  }
  return "";
}

/** Plan options that rank by the analytic evaluator only: no placer beyond greedy, no SimGrid run. */
inline hulk::PlanOptions analytic_plan_options() {
  hulk::PlanOptions o;
  o.methods.clear();
  o.simgrid = false;
  return o;
}

}  // namespace hulk_test
