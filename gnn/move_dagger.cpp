#include "gnn/move_dagger.hpp"

#include <limits>
#include <random>

#include "sim/core/seeding.hpp"
#include "sim/evaluate/evaluator.hpp"

namespace hulk::gnn {

std::vector<MoveSample> policy_states(MoveScorer& scorer, const std::vector<MoveSample>& samples,
                                      const DaggerOptions& o) {
  std::vector<MoveSample> out;
  out.reserve(samples.size());
  // A margin no score difference reaches from below: the walk takes its top-ranked move at every step.
  const double always = -std::numeric_limits<double>::infinity();
  for (const MoveSample& s : samples) {
    MoveSample added;
    added.index = s.index;
    added.scenario = s.scenario;
    if (!s.states.empty() && !s.states.front().moves.empty()) {
      const Evaluator ev(s.scenario);
      std::vector<Placement> steps;
      follow_learned_moves(scorer, s.scenario, ev.network(), s.states.front().placement, o.walk, always, &steps);
      std::mt19937_64 rng(stream_seed(stream_seed(o.seed, 0x64616767ULL + static_cast<std::uint64_t>(o.round)),
                                      static_cast<std::uint64_t>(s.index)));
      for (const Placement& p : steps) {
        MoveState st = label_state(s.scenario, ev, p, o.moves_per_state, rng);
        if (!st.moves.empty()) added.states.push_back(std::move(st));
      }
    }
    out.push_back(std::move(added));
  }
  return out;
}

}  // namespace hulk::gnn
