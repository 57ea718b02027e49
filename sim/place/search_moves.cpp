#include "sim/place/search_moves.hpp"

#include <algorithm>
#include <utility>

#include "sim/core/jobs.hpp"
#include "sim/evaluate/estimate_trust.hpp"
#include "sim/place/placer_common.hpp"
#include "sim/workload/placement_check.hpp"

namespace hulk {

SearchState make_search_state(const Scenario& sc, const Placement& p) {
  SearchState st;
  st.gpu = p.gpu_of_rank;
  st.host = hosts_of(p);
  std::vector<GpuSlot> used = p.gpu_of_rank;
  std::sort(used.begin(), used.end());
  for (const GpuSlot& g : all_gpus(sc.platform))
    if (!std::binary_search(used.begin(), used.end(), g)) st.free.push_back(g);
  return st;
}

namespace {

void swap_ranks(SearchState& st, int a, int b) {
  std::swap(st.gpu[a], st.gpu[b]);
  std::swap(st.host[a], st.host[b]);
}

/** Exchanges the ranks of hosts a and b (each set moves to the other host's slots 0..k-1); false if a set does not
 *  fit the other host (GPU count or memory). */
bool swap_hosts(SearchState& st, const Scenario& sc, const RankFits& fits, int a, int b) {
  std::vector<int> on_a, on_b;
  for (size_t r = 0; r < st.host.size(); ++r) {
    if (st.host[r] == a) on_a.push_back(static_cast<int>(r));
    if (st.host[r] == b) on_b.push_back(static_cast<int>(r));
  }
  if (on_a.empty() && on_b.empty()) return false;
  if (static_cast<int>(on_a.size()) > sc.platform.hosts[b].gpus) return false;
  if (static_cast<int>(on_b.size()) > sc.platform.hosts[a].gpus) return false;
  for (int r : on_a)
    if (!fits(r, b)) return false;
  for (int r : on_b)
    if (!fits(r, a)) return false;
  for (size_t i = 0; i < on_a.size(); ++i) {
    st.gpu[on_a[i]] = {b, static_cast<int>(i)};
    st.host[on_a[i]] = b;
  }
  for (size_t i = 0; i < on_b.size(); ++i) {
    st.gpu[on_b[i]] = {a, static_cast<int>(i)};
    st.host[on_b[i]] = a;
  }
  st.free.erase(std::remove_if(st.free.begin(), st.free.end(),
                               [&](const GpuSlot& g) { return g.host == a || g.host == b; }),
                st.free.end());
  for (int i = static_cast<int>(on_b.size()); i < sc.platform.hosts[a].gpus; ++i) st.free.push_back({a, i});
  for (int i = static_cast<int>(on_a.size()); i < sc.platform.hosts[b].gpus; ++i) st.free.push_back({b, i});
  return true;
}

}  // namespace

SearchMoves::SearchMoves(const Scenario& scenario, RankFits fits, std::mt19937_64& rng,
                         std::uniform_real_distribution<double>& unit, std::optional<int> max_tp_groups_across_regions,
                         std::optional<IslandKeeper> islands)
    : sc_(scenario), fits_(std::move(fits)), rng_(rng), unit_(unit), max_across_(max_tp_groups_across_regions),
      islands_(std::move(islands)), ranks_(total_ranks(scenario)) {
  // A job's ranks are ordered stage, replica, TP index (ParallelPlan): its TP groups and stages are runs of ranks.
  for (int j = 0; j < job_count(scenario); ++j) {
    const Parallelism& par = job_at(scenario, j).par;
    const int first = job_rank_offset(scenario, j);
    for (int g = 0; g < par.pp * par.dp; ++g) tp_groups_.push_back({first + g * par.tp, par.tp});
    for (int s = 0; s < par.pp; ++s) stages_.push_back({first + s * par.dp * par.tp, par.dp * par.tp});
  }
}

bool SearchMoves::propose(SearchState& cand) {
  return move(cand) && (!max_across_ || tp_groups_across_regions_of_hosts(sc_, cand.host) <= *max_across_) &&
         (!islands_ || islands_->keeps(cand.host));
}

bool SearchMoves::move(SearchState& cand) {
  const double u = unit_(rng_);
  if (u < 0.30) return swap_two_ranks(cand);
  if (u < 0.50) return move_to_unused_gpu(cand);
  if (u < 0.70) return swap_drawn_blocks(cand, tp_groups_);
  if (u < 0.85) return exchange_hosts(cand);
  return swap_drawn_blocks(cand, stages_);
}

int SearchMoves::uniform(int n) { return static_cast<int>(std::uniform_int_distribution<int>(0, n - 1)(rng_)); }

bool SearchMoves::swap_two_ranks(SearchState& cand) {
  if (ranks_ < 2) return false;
  const int a = uniform(ranks_), b = uniform(ranks_);
  if (cand.host[a] == cand.host[b] || !fits_(a, cand.host[b]) || !fits_(b, cand.host[a])) return false;
  swap_ranks(cand, a, b);
  return true;
}

bool SearchMoves::move_to_unused_gpu(SearchState& cand) {
  if (cand.free.empty()) return false;
  const int a = uniform(ranks_);
  const int i = uniform(static_cast<int>(cand.free.size()));
  if (cand.free[i].host == cand.host[a] || !fits_(a, cand.free[i].host)) return false;
  std::swap(cand.gpu[a], cand.free[i]);
  cand.host[a] = cand.gpu[a].host;
  return true;
}

bool SearchMoves::swap_blocks(SearchState& cand, const Block& a, const Block& b) {
  if (a.first == b.first || a.size != b.size) return false;
  bool ok = true;
  for (int i = 0; i < a.size && ok; ++i)
    ok = fits_(a.first + i, cand.host[b.first + i]) && fits_(b.first + i, cand.host[a.first + i]);
  if (ok)
    for (int i = 0; i < a.size; ++i) swap_ranks(cand, a.first + i, b.first + i);
  return ok;
}

bool SearchMoves::swap_drawn_blocks(SearchState& cand, const std::vector<Block>& blocks) {
  const int n = static_cast<int>(blocks.size());
  if (n < 2) return false;
  const int a = uniform(n), b = uniform(n);
  return swap_blocks(cand, blocks[a], blocks[b]);
}

bool SearchMoves::exchange_hosts(SearchState& cand) {
  const int H = static_cast<int>(sc_.platform.hosts.size());
  if (H < 2) return false;
  const int a = uniform(H), b = uniform(H);
  return a != b && swap_hosts(cand, sc_, fits_, a, b);
}

}  // namespace hulk
