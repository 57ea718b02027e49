#include "sim/methods/method_registry.hpp"

#include "sim/core/data_dir.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/core/method_names.hpp"
#include "sim/core/subprocess.hpp"
#include "sim/engine/isolated_run.hpp"
#include "sim/methods/gnn_method.hpp"
#include "sim/methods/verified_search.hpp"
#include "sim/evaluate/pipeline_memo.hpp"
#include "sim/evaluate/robust_evaluator.hpp"
#include "sim/place/search_placer.hpp"
#include "sim/place/exhaustive_placer.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/random_placer.hpp"
#include "sim/report/placement_json.hpp"

namespace hulk {
namespace {

/** round-robin as a Placer (the rule itself is sim/place/placer.hpp's round_robin_placement). */
class RoundRobinPlacer : public Placer {
 public:
  std::string name() const override { return "round-robin"; }
  Placement place(const Scenario& scenario) override {
    Placement p = round_robin_placement(scenario);
    const std::string problem = placement_problem(scenario, p, checks_memory(scenario));
    if (!problem.empty()) throw InputError(scenario.file, 0, "placement", "round-robin placement: " + problem);
    return p;
  }
};

/** file:PATH: a placement read from a JSON file, checked against the scenario. */
class FilePlacer : public Placer {
 public:
  explicit FilePlacer(std::string path) : path_(std::move(path)) {}
  std::string name() const override { return kPlacementFilePrefix + path_; }
  Placement place(const Scenario& scenario) override {
    try {
      return load_placement_file(scenario, path_);
    } catch (const InputError& e) {
      // The problem is in the placement file (named first); the scenario it was given for is named too.
      if (scenario.file.empty() || e.file() == scenario.file) throw;
      throw InputError(InputError::Preformatted{}, e.file(), e.line(), e.key(),
                       std::string(e.what()) + " (placement file of " + scenario.file + ")");
    }
  }

 private:
  std::string path_;
};

/** gnn and gnn+refine (sim/methods/gnn_method.hpp). */
class LearnedMethodPlacer : public Placer {
 public:
  LearnedMethodPlacer(std::string method, MethodOptions options) : method_(std::move(method)), options_(options) {}
  std::string name() const override { return method_; }
  Placement place(const Scenario& scenario) override {
    const std::string model = model_or_committed(options_.model_path);
    return gnn_placement(scenario, model, options_.learned, method_ == "gnn+refine", options_.budget);
  }

 private:
  std::string method_;
  MethodOptions options_;
};

}  // namespace

const std::vector<std::string>& known_methods() {
  static const std::vector<std::string> names = method_name_list();
  return names;
}

std::string methods_help() {
  std::string out;
  char line[256];
  for (const auto& m : method_names()) {
    std::snprintf(line, sizeof line, "  %-12s %s\n", m.name, m.description);
    out += line;
  }
  return out + "  file:PATH    a placement JSON file (as written by `hulk place`)\n";
}

void check_method(const std::string& method, const std::string& file, const std::string& key) {
  if (!is_method_name(method)) throw InputError(file, 0, key, unknown_method_message(method));
}

namespace {
constexpr const char* kCommittedModel = "models/hulk-gnn.pt";
}  // namespace

std::string default_model_path() { return data_path(kCommittedModel); }

std::string model_or_committed(const std::string& path) { return path.empty() ? data_file(kCommittedModel) : path; }

std::unique_ptr<Placer> make_placer(const std::string& method, const MethodOptions& options) {
  check_method(method, "", "placement");
  if (method.rfind(kPlacementFilePrefix, 0) == 0)
    return std::make_unique<FilePlacer>(method.substr(std::string(kPlacementFilePrefix).size()));
  if (method == "round-robin") return std::make_unique<RoundRobinPlacer>();
  if (method == "random") return std::make_unique<RandomPlacer>();
  if (method == "greedy") return std::make_unique<GreedyPlacer>();
  if (method == "search") {
    VerifiedSearchOptions o;
    if (options.budget > 0) o.total_evaluations = options.budget;
    for (const KnownSimulation& k : options.known_simulations)
      o.known_simgrid.emplace_back(k.placement, k.result.at("objective_s").get<double>());
    return std::make_unique<VerifiedSearchPlacer>(o);
  }
  if (method == "robust") {
    SearchOptions o;
    o.robust = true;
    if (options.budget > 0) o.max_evaluations = options.budget;
    // The final choice among the best few and the start (greedy) by SimGrid's mean over the same network states:
    // the evaluator's error grows on degraded pairs, and a robust answer must not be worse than greedy's there.
    o.simgrid_candidates = 4;
    o.simgrid_time = [](const Scenario& s, const Placement& p) {
      double sum = 0;
      const auto states = robust_states(s, s.robust, s.robust.seed);
      // Up to 100,000 states, one SimGrid run each, per candidate: a progress line every 10 s.
      auto last_report = std::chrono::steady_clock::now();
      for (std::size_t i = 0; i < states.size(); ++i) {
        sum += simulated_iteration_time_s(states[i], p);
        const auto now = std::chrono::steady_clock::now();
        if (std::chrono::duration<double>(now - last_report).count() >= 10.0) {
          std::cerr << "robust: SimGrid check of a candidate, " << i + 1 << " of " << states.size()
                    << " network states\n";
          last_report = now;
        }
      }
      return sum / static_cast<double>(states.size());
    };
    return std::make_unique<SearchPlacer>(o);
  }
  if (method == "exhaustive") {
    ExhaustiveOptions o;
    o.time_oracle = simulated_iteration_time_s;
    o.progress = &std::cerr;  // up to 5,000 SimGrid runs: a line every 10 s
    return std::make_unique<ExhaustivePlacer>(o);
  }
  // gnn, gnn+refine: the only names left (method_names() is the list checked above).
  if (!options.learned)
    throw InputError("", 0, "placement", "method '" + method + "' needs the learned placer (gnn/)");
  return std::make_unique<LearnedMethodPlacer>(method, options);
}

void check_method_files(const std::string& method, const MethodOptions& options) {
  const bool file = method.rfind(kPlacementFilePrefix, 0) == 0;
  const std::string path = file ? method.substr(std::string(kPlacementFilePrefix).size()) : options.model_path;
  if (!file && !uses_learned_placer(method)) return;
  if (file && path.empty())
    throw InputError("", 0, "--methods", "'" + method + "' names no file (expected file:PATH of a placement JSON)");
  if (!path.empty() && !std::ifstream(path))  // "": the committed model
    throw InputError(path, 0, file ? "--methods" : "--model",
                     file ? "cannot open placement file" : "cannot open the model file (expected a file of `hulk gnn train`)");
  if (file) return;
  const std::string model = model_or_committed(path);  // a missing committed model is named before any work
  if (!options.check_learned_model) return;
  if (options.prepare_learned) options.prepare_learned();
  run_in_child([&]() {  // torch must not start in this process (subprocess.hpp)
    options.check_learned_model(model);
    return nlohmann::json::object();
  });
}

void check_method_applies(const Scenario& scenario, const std::string& method, const MethodOptions& options) {
  check_method(method, scenario.file, "placement");
  check_method_files(method, options);
  if (method.rfind(kPlacementFilePrefix, 0) == 0) {  // reading the file is cheap: read and check it
    const Placement p = make_placer(method, options)->place(scenario);
    const std::string problem = placement_problem(scenario, p, checks_memory(scenario));
    if (!problem.empty())
      throw InputError(scenario.file, 0, "placement",
                       "the placement in " + method.substr(5) + " is not valid for this scenario: " + problem);
  } else if (method == "robust") {
    require_robust_distribution(scenario);
  } else if (method == "exhaustive") {
    ExhaustivePlacer().check_applies(scenario);
  }
}

std::vector<std::string> parse_method_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string item;
  const bool trailing_comma = !text.empty() && text.back() == ',';  // getline gives no last empty item for it
  while (std::getline(ss, item, ',')) {
    if (item.empty() || (trailing_comma && ss.peek() == EOF))  // `greedy,,search` or `greedy,`: a name left out
      throw InputError("", 0, "--methods", "'" + text + "' has an empty item (expected method names separated by "
                                           "single commas)");
    check_method(item, "", "--methods");
    if (std::find(out.begin(), out.end(), item) != out.end())
      throw InputError("", 0, "--methods", "'" + item + "' is listed twice (expected each method once)");
    out.push_back(item);
  }
  if (out.empty())
    throw InputError("", 0, "--methods", "no method given (expected one of: " + method_names_text() + ")");
  return out;
}

PlacementOutcome compute_placement(const Scenario& scenario, const std::string& method, const MethodOptions& options) {
  check_method(method, scenario.file, "placement");
  if (uses_learned_placer(method) && options.prepare_learned) options.prepare_learned();
  nlohmann::json answer = run_in_child([&]() {
    PipelineMemo::process().clear();  // timed cold, as in a process of its own (the child inherits the parent's)
    const auto start = std::chrono::steady_clock::now();
    const std::unique_ptr<Placer> placer = make_placer(method, options);
    Placement p = placer->place(scenario);
    const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // The search's check simulated its candidates: the caller need not simulate them again (known_simulations.hpp).
    const auto* verified = dynamic_cast<const VerifiedSearchPlacer*>(placer.get());
    const std::string problem = placement_problem(scenario, p, checks_memory(scenario));
    if (!problem.empty()) {
      // A placement file is the user's input (e.g. it puts a stage on a GPU it does not fit): exit 2, not a bug.
      if (method.rfind("file:", 0) == 0)
        throw InputError(scenario.file, 0, "placement",
                         "the placement in " + method.substr(5) + " is not valid for this scenario: " + problem);
      throw std::runtime_error("placer '" + method + "' returned an invalid placement: " + problem);
    }
    nlohmann::json simulated = nlohmann::json::array();
    if (verified)
      for (const KnownSimulation& k : verified->simulated())
        simulated.push_back({{"placement", placement_to_json(scenario, k.placement)}, {"result", k.result}});
    return nlohmann::json{{"placement", placement_to_json(scenario, p)}, {"wall_s", wall_s}, {"simulated", simulated}};
  });
  PlacementOutcome out;
  out.method = method;
  out.placement = placement_from_json(scenario, answer.at("placement"), "<" + method + ">");
  out.wall_s = answer.at("wall_s").get<double>();
  for (const nlohmann::json& k : answer.at("simulated"))
    out.simulated.push_back({placement_from_json(scenario, k.at("placement"), "<" + method + ">"), k.at("result")});
  return out;
}

}  // namespace hulk
