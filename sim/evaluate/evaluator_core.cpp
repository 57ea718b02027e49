// The Evaluator's core (evaluator_core.hpp): its construction, the scratch's sizing and the link-sharing rule.
#include "sim/evaluate/evaluator_core.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "sim/evaluate/stage_co_busy.hpp"

namespace hulk {
namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace

std::shared_ptr<const RouteModel> analytic_route_model(const Scenario& scenario) {
  return std::make_shared<const RouteModel>(scenario.platform, network_model_factors(scenario.network.model));
}

EvaluatorCore::EvaluatorCore(const Scenario& scenario, std::shared_ptr<const RouteModel> network)
    : scenario_(scenario),
      cost_(compute_job_cost(scenario.only_job())),
      plan_(scenario.only_job().par),
      network_(network ? std::move(network) : analytic_route_model(scenario)),
      channels_(std::max(1, scenario.network.channels_per_peer)),
      latency_at_receiver_(scenario.network.model == "CM02"),
      // The window caps a flow at window / (2 x its links' own latency): SimGrid divides by the latency before the
      // model's latency factor, which this evaluator's routes include (so the window scales by that factor).
      tcp_window_bytes_(scenario.network.tcp_window_bytes * network_->factors().latency) {
  if (network_->hosts() != static_cast<int>(scenario.platform.hosts.size()))
    throw std::invalid_argument("Evaluator: the route model given is of another platform (" +
                                std::to_string(network_->hosts()) + " hosts, the scenario has " +
                                std::to_string(scenario.platform.hosts.size()) + ")");
  const NetworkFactors expected = network_model_factors(scenario.network.model);
  if (network_->factors().latency != expected.latency || network_->factors().bandwidth != expected.bandwidth)
    throw std::invalid_argument("Evaluator: the route model given has other network-model factors than " +
                                scenario.network.model + "'s");
  const auto& hosts = scenario_.platform.hosts;
  stages_ = StagesByHost(scenario_.only_job(), cost_, scenario_.platform);
  speed_.resize(hosts.size());
  memory_.resize(hosts.size());
  for (size_t h = 0; h < hosts.size(); ++h) {
    speed_[h] = hosts[h].gpu.peak_flops(scenario_.only_job().precision) * scenario_.only_job().utilisation;
    memory_[h] = hosts[h].gpu.memory_bytes;
  }
  const Parallelism& par = scenario_.only_job().par;
  const int v = scenario_.only_job().virtual_stages;
  schedule_ = stage_op_orders(scenario_.only_job().schedule, par.pp, std::max(1, cost_.micro_batches), v);
  stage_co_busy_ = stage_co_busy(schedule_, kUnitBackwardCost);
  pipe_memo_ = &PipelineMemo::process();
  schedule_id_ = pipe_memo_->schedule_id(scenario_.only_job().schedule + (v > 1 ? "/v" + std::to_string(v) : ""),
                                         par.pp, std::max(1, cost_.micro_batches));
  // The fill and drain of the lower bound assume each op runs the stage's whole layers: not so with model chunks.
  schedule_chained_ = v == 1;
  for (const std::vector<StageOp>& ops : schedule_)
    schedule_chained_ = schedule_chained_ && !ops.empty() && !ops.front().backward && ops.front().mb == 0 &&
                        ops.back().backward && ops.back().mb == std::max(1, cost_.micro_batches) - 1;
}

void EvaluatorCore::prepare(EvaluatorScratch& w) const {
  // A scratch sized for this shape holds nothing a new estimate reads (evaluator_scratch.hpp): kept as is.
  const Parallelism& par = scenario_.only_job().par;
  const size_t sd = static_cast<size_t>(par.pp) * par.dp;
  const long long shape[3] = {network_->links(), static_cast<long long>(sd), tcp_window_bytes_ > 0 ? 1 : 0};
  if (std::equal(shape, shape + 3, w.shape)) return;
  w = EvaluatorScratch{};
  std::copy(shape, shape + 3, w.shape);
  w.link_count_.assign(network_->links(), 0);
  w.extra_load_.assign(network_->links(), 0.0);
  w.fwd_.assign(sd, 0.0);
  w.bwd_.assign(sd, 0.0);
  w.logits_f_.assign(sd, 0.0);
  w.lat_f_.assign(sd, 0.0);
  w.xfer_f_.assign(sd, 0.0);
  w.lat_b_.assign(sd, 0.0);
  w.xfer_b_.assign(sd, 0.0);
  w.room_f_.assign(tcp_window_bytes_ > 0 ? sd : 0, 1.0);  // headroom under the window: none without one
  w.room_b_ = w.room_f_;
  w.links_f_.assign(3 * sd, -1);
  w.links_b_.assign(3 * sd, -1);
  w.weights_f_.assign(3 * sd, 1);
  w.weights_b_.assign(3 * sd, 1);
  w.slack_f_.assign(3 * sd, 1.0);
  w.slack_b_.assign(3 * sd, 1.0);
  w.dp_s_.assign(par.pp, 0.0);
  w.stage_done_.assign(par.pp, 0.0);
  w.replica_done_.assign(sd, 0.0);
  const size_t max_flows = static_cast<size_t>(par.ranks()) + 1;
  w.src_.reserve(max_flows);
  w.dst_.reserve(max_flows);
  w.times_.reserve(max_flows);
}

bool EvaluatorCore::stage_fits(int stage, int host) const {
  if (!scenario_.only_job().check_memory) return true;
  return cost_.stages[stage].peak_memory_bytes <= memory_[host];
}

bool EvaluatorCore::fits(int rank, int host) const { return stage_fits(plan_.coord_of(rank).pp, host); }

bool EvaluatorCore::hosts_fit(const std::vector<int>& host_of_rank, EvalBreakdown& out) const {
  const int H = network_->hosts();
  if (static_cast<int>(host_of_rank.size()) != plan_.ranks()) return false;
  for (int r = 0; r < plan_.ranks(); ++r) {
    const int h = host_of_rank[r];
    if (h < 0 || h >= H) return false;
    if (!fits(r, h)) {
      out.infeasible_rank = r;
      return false;
    }
  }
  return true;
}

namespace eval {

void concurrent_times(const EvaluatorCore& core, EvaluatorScratch& w, const int* src, const int* dst, int n,
                      double bytes, double* out, const double* bytes_each, double* headroom) {
  // Count flows per directed link over all concurrent transfers, then give each transfer the share of its most
  // loaded link (approximation 1 of docs/model.md). Counts are reset through the same routes afterwards. Each route
  // is built once (route() assembles it from per-host and per-region parts on every call).
  std::vector<Route>& routes = w.routes_;
  routes.resize(n);
  for (int i = 0; i < n; ++i) {
    routes[i] = core.network_->route(src[i], dst[i]);
    const Route& r = routes[i];
    for (int k = 0; k < r.n_links; ++k) ++w.link_count_[r.links[k]];
  }
  for (int i = 0; i < n; ++i) {
    const Route& r = routes[i];
    double share = r.flow_cap_Bps;
    // TCP window: at most one window per round trip per flow (the engine's per-flow rate cap).
    const bool windowed = core.tcp_window_bytes_ > 0 && r.latency_s > 0;
    const double window_cap = windowed ? core.tcp_window_bytes_ / (2.0 * r.latency_s) : kInf;
    for (int k = 0; k < r.n_links; ++k) {
      const int l = r.links[k];
      // Other jobs' share of the link (share_links); without it the expression is the one-job one, bit for bit.
      share = std::min(share, core.link_capacity_Bps(l) / (w.link_count_[l] + w.extra_load_[l]));
    }
    if (headroom) headroom[i] = share > window_cap ? share / window_cap : 1.0;
    share = std::min(share, window_cap);  // min is exact: the same bits in any order
    out[i] = r.latency_s + (bytes_each ? bytes_each[i] : bytes) / share;
  }
  for (int i = 0; i < n; ++i) {
    const Route& r = routes[i];
    for (int k = 0; k < r.n_links; ++k) w.link_count_[r.links[k]] = 0;
  }
}

}  // namespace eval
}  // namespace hulk
