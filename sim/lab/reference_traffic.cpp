#include "sim/lab/reference_traffic.hpp"

#include "sim/methods/method_registry.hpp"
#include "sim/scenario/scenario_json.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/core/subprocess.hpp"

namespace hulk {

ReferenceTrace reference_trace(const Scenario& scenario) {
  ReferenceTrace out;
  out.placement = make_placer("greedy")->place(scenario);
  nlohmann::json answer = run_in_child([&]() {
    SimOptions options;
    options.record_events = true;
    options.record_spans = false;
    SimResult result = simulate(scenario, out.placement, options);
    return nlohmann::json{{"traffic", traffic_to_json(traffic_from_events(scenario.platform, result.events))},
                          {"iteration_time_s", result.iteration_time_s}};
  });
  out.traffic = traffic_from_json(answer.at("traffic"), "<reference trace>", "traffic");
  out.iteration_time_s = answer.at("iteration_time_s").get<double>();
  return out;
}

}  // namespace hulk
