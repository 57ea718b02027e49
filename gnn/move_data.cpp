#include "gnn/move_data.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#include <set>

#include <nlohmann/json.hpp>

#include "gnn/dataset.hpp"
#include "gnn/moves.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/seeding.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/features/scenario_sampler.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/placer_common.hpp"
#include "sim/scenario/scenario_json.hpp"
#include "sim/workload/placement_check.hpp"

namespace hulk::gnn {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kMoveSampleFormat = 1;

/** Up to `count` of the candidates, drawn without replacement (a partial Fisher-Yates shuffle on raw draws of the
 *  generator: std's distributions are not the same on every standard library), kept in (a, b) order. */
std::vector<std::pair<int, int>> draw_candidates(std::vector<std::pair<int, int>> all, int count,
                                                 std::mt19937_64& rng) {
  const std::size_t n = all.size(), k = std::min<std::size_t>(n, static_cast<std::size_t>(std::max(0, count)));
  for (std::size_t i = 0; i < k; ++i) std::swap(all[i], all[i + rng() % (n - i)]);
  all.resize(k);
  std::sort(all.begin(), all.end());
  return all;
}

}  // namespace

MoveState label_state(const Scenario& s, const Evaluator& ev, const Placement& p, int moves, std::mt19937_64& rng) {
  MoveState state;
  state.placement = p;
  const double before = ev.iteration_time_s(p);
  for (const auto& [a, b] : draw_candidates(candidate_exchanges(s, p), moves, rng)) {
    Placement q = p;
    exchange_hosts(s, q, a, b);
    state.moves.push_back({a, b, move_label(before, ev.iteration_time_s(q))});
  }
  return state;
}

MoveSample make_move_sample(int index, std::uint64_t seed, const MoveDataOptions& options) {
  SamplerOptions sampler;
  sampler.max_total_gpus = options.max_gpus;
  sampler.min_total_gpus = std::min(options.min_gpus, options.max_gpus);
  const std::uint64_t scenario_seed = sample_seed(seed, static_cast<std::uint64_t>(index));
  MoveSample sample;
  sample.index = index;
  sample.scenario = sample_scenario(scenario_seed, sampler);
  const Evaluator ev(sample.scenario);
  std::mt19937_64 rng(component_seed(scenario_seed, "gen-moves"));
  Placement p = GreedyPlacer::place_with(sample.scenario, ev);
  std::set<std::vector<int>> seen{hosts_of(p)};
  for (int k = 0; k < options.states; ++k) {
    sample.states.push_back(label_state(sample.scenario, ev, p, options.moves_per_state, rng));
    const std::vector<MoveExample>& moves = sample.states.back().moves;
    if (moves.empty()) break;
    // Next state: the best labelled move on even steps, a random one on odd steps (states off the greedy path),
    // among the moves to a placement not visited yet.
    std::vector<std::size_t> order(moves.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    if (k % 2 == 0)
      std::stable_sort(order.begin(), order.end(),
                       [&moves](std::size_t x, std::size_t y) { return moves[x].label < moves[y].label; });
    else
      for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
    bool moved = false;
    for (const std::size_t pick : order) {
      Placement next = p;
      exchange_hosts(sample.scenario, next, moves[pick].a, moves[pick].b);
      if (!seen.insert(hosts_of(next)).second) continue;
      p = std::move(next);
      moved = true;
      break;
    }
    if (!moved) break;
  }
  return sample;
}

void write_move_sample(const std::string& dir, const MoveSample& sample) {
  json states = json::array();
  for (const MoveState& st : sample.states) {
    json moves = json::array();
    for (const MoveExample& m : st.moves) moves.push_back({m.a, m.b, m.label});
    states.push_back({{"placement", placement_slots_to_json(st.placement)}, {"moves", moves}});
  }
  const json doc{{"format_version", kMoveSampleFormat}, {"kind", "moves"},       {"index", sample.index},
                 {"scenario", scenario_to_json(sample.scenario)}, {"states", states}};
  std::error_code ec;
  fs::create_directories(fs::path(dir) / "samples", ec);
  write_file_atomic(sample_path(dir, sample.index), doc.dump() + "\n");
}

namespace {

MoveExample read_move(const json& m, const std::string& path, const std::string& key, int hosts) {
  if (!m.is_array() || m.size() != 3 || !m[0].is_number_integer() || !m[1].is_number_integer() || !m[2].is_number())
    throw InputError(path, 0, key, "expected [host a, host b, label]");
  MoveExample e{m[0].get<int>(), m[1].get<int>(), m[2].get<double>()};
  if (e.a < 0 || e.b < 0 || e.a >= hosts || e.b >= hosts || e.a == e.b)
    throw InputError(path, 0, key, "hosts out of range or equal");
  if (!std::isfinite(e.label) || std::abs(e.label) > kMoveLabelClip)
    throw InputError(path, 0, key, "label outside [-" + std::to_string(kMoveLabelClip) + ", " +
                                       std::to_string(kMoveLabelClip) + "]");
  return e;
}

}  // namespace

MoveSample read_move_sample(const std::string& path) {
  const json doc = read_json_file(path);
  if (!doc.is_object() || doc.value("kind", "") != "moves")
    throw InputError(path, 0, "kind", "not a move sample (expected \"moves\"; made by `hulk gnn gen-moves`)");
  if (doc.value("format_version", 0) != kMoveSampleFormat)
    throw InputError(path, 0, "format_version", "expected " + std::to_string(kMoveSampleFormat));
  MoveSample s;
  if (!doc.contains("index") || !doc["index"].is_number_integer()) throw InputError(path, 0, "index", "missing");
  s.index = doc["index"].get<int>();
  if (!doc.contains("scenario")) throw InputError(path, 0, "scenario", "missing");
  s.scenario = scenario_from_json(doc["scenario"], path);
  if (!doc.contains("states") || !doc["states"].is_array()) throw InputError(path, 0, "states", "expected an array");
  const int hosts = static_cast<int>(s.scenario.platform.hosts.size());
  for (std::size_t i = 0; i < doc["states"].size(); ++i) {
    const json& st = doc["states"][i];
    const std::string key = "states[" + std::to_string(i) + "]";
    if (!st.is_object() || !st.contains("placement") || !st.contains("moves") || !st["moves"].is_array())
      throw InputError(path, 0, key, "expected {\"placement\": ..., \"moves\": [...]}");
    MoveState state;
    state.placement = placement_slots_from_json(st["placement"], path, key + ".placement");
    if (const std::string problem = placement_problem(s.scenario, state.placement, s.scenario.only_job().check_memory);
        !problem.empty())
      throw InputError(path, 0, key + ".placement", "is not a valid placement of the scenario: " + problem);
    for (std::size_t m = 0; m < st["moves"].size(); ++m)
      state.moves.push_back(read_move(st["moves"][m], path, key + ".moves[" + std::to_string(m) + "]", hosts));
    s.states.push_back(std::move(state));
  }
  return s;
}

std::vector<MoveSample> load_move_dataset(const std::string& dir, bool allow_missing) {
  std::vector<MoveSample> out;
  for (const std::string& path : sample_paths_to_load(dir, allow_missing, "gen-moves"))
    out.push_back(read_move_sample(path));
  return out;
}

std::vector<MoveSample> load_move_datasets(const std::vector<std::string>& dirs, bool allow_missing) {
  std::vector<MoveSample> samples;
  for (const std::string& dir : dirs)
    for (MoveSample& s : load_move_dataset(dir, allow_missing)) samples.push_back(std::move(s));
  if (samples.empty()) throw InputError(dirs.empty() ? "" : dirs.front(), 0, "", "no move samples");
  return samples;
}

}  // namespace hulk::gnn
