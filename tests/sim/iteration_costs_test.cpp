// The iteration's fixed costs in SimGrid and in the evaluator, against closed forms: the optimizer step (bytes /
// memory bandwidth), the tied-embedding all-reduce (the two-member ring), the gradient norm's all-reduce, the
// framework overhead; and a transport's achieved fraction scaling a ring all-reduce exactly.
#include <gtest/gtest.h>

#include "sim_fixtures.hpp"
#include "../unit/temp_file.hpp"

#include <string>

#include "sim/engine/isolated_run.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/place/placer.hpp"
#include "sim/scenario/catalog.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/workload/cost_model.hpp"

using namespace hulk_test;

namespace {

constexpr double kNicBps = 1.25e9;  // 10 Gbit/s
constexpr double kNicLat = 50e-6;

}  // namespace

TEST(IterationCosts, OptimizerStepIsBytesOverMemoryBandwidth) {
  hulk::GpuSpec gpu = infinite_gpu();
  gpu.memory_bandwidth_Bps = 1e12;
  hulk::Scenario s = scenario(grid_platform(1, 1, 1, kNicBps, kNicLat, kNicBps, 0.0, gpu), small_job(1, 1, 1, 2, 1));
  s.only_job().compute_model = "flat";  // the layers at 1e30 flop/s: the step alone takes time
  s.only_job().step_costs = true;
  const double params = hulk::compute_job_cost(s.only_job()).stages[0].params;
  const double expected = params * 34.0 / 1e12;  // mixed-precision Adam 30 bytes + the norm's gradient read 4
  const hulk::SimResult r = hulk::simulate(s, hulk::round_robin_placement(s));
  EXPECT_NEAR(r.iteration_costs.optimizer_step_s / expected, 1.0, 1e-6);
  EXPECT_NEAR(r.iteration_time_s / expected, 1.0, 1e-3);
  const hulk::EvalBreakdown e = hulk::Evaluator(s).evaluate(hulk::round_robin_placement(s));
  EXPECT_NEAR(e.iteration_costs.optimizer_step_s / expected, 1.0, 1e-9);
}

TEST(IterationCosts, TiedEmbeddingAllReduceIsTheTwoMemberRing) {
  // pp 2 on two single-GPU hosts: the first and last stage sum the word-embedding gradient (vocab x hidden fp16).
  hulk::JobSpec job = small_job(1, 1, 2, 2, 1);
  job.model.vocab = 1000;
  job.step_costs = true;
  hulk::Scenario s = scenario(grid_platform(1, 2, 1, kNicBps, kNicLat, kNicBps, 0.0), job);
  const double S = 1000.0 * 1024 * 2;
  const double a = 2 * kNicLat;  // sender NIC up + receiver NIC down
  const double ring = 2 * a + S / kNicBps;  // 2(n-1)a + 2(n-1)/n S/B with n = 2
  const double norm = 2 * (a + 2.0 / kNicBps);  // one fp32 value over the two stages
  EXPECT_EQ(hulk::compute_job_cost(s.only_job()).stages[1].embedding_grad_bytes, S);
  // Untied embeddings: no all-reduce (first, in a child process: SimGrid runs once per process).
  hulk::Scenario untied = s;
  untied.only_job().model.tied_embeddings = false;
  EXPECT_EQ(hulk::compute_job_cost(untied.only_job()).stages[1].embedding_grad_bytes, 0.0);
  const double untied_s = hulk::simulated_iteration_time_s(untied, hulk::round_robin_placement(untied));
  const hulk::SimResult r = hulk::simulate(s, hulk::round_robin_placement(s));
  EXPECT_NEAR(r.iteration_costs.embedding_allreduce_s / ring, 1.0, 1e-3) << r.iteration_costs.embedding_allreduce_s;
  EXPECT_NEAR(r.iteration_costs.grad_norm_allreduce_s / norm, 1.0, 1e-3) << r.iteration_costs.grad_norm_allreduce_s;
  const hulk::EvalBreakdown e = hulk::Evaluator(s).evaluate(hulk::round_robin_placement(s));
  EXPECT_NEAR(e.iteration_costs.embedding_allreduce_s / ring, 1.0, 1e-6);
  EXPECT_NEAR(e.iteration_costs.grad_norm_allreduce_s / norm, 1.0, 1e-6);
  EXPECT_NEAR(e.iteration_time_s / r.iteration_time_s, 1.0, 0.02);
  EXPECT_LT(untied_s, r.iteration_time_s - 0.9 * ring);
}

TEST(IterationCosts, FrameworkOverheadAddsItsTime) {
  hulk::Scenario s = scenario(grid_platform(1, 2, 1, kNicBps, kNicLat, kNicBps, 0.0), small_job(2, 1, 1, 2, 1));
  const double base = hulk::simulated_iteration_time_s(s, hulk::round_robin_placement(s));  // a child process
  s.only_job().framework_overhead_s = 0.25;
  const hulk::SimResult r = hulk::simulate(s, hulk::round_robin_placement(s));
  EXPECT_NEAR((r.iteration_time_s - base) / 0.25, 1.0, 1e-9);
  EXPECT_EQ(r.iteration_costs.framework_overhead_s, 0.25);
  const hulk::EvalBreakdown e = hulk::Evaluator(s).evaluate(hulk::round_robin_placement(s));
  EXPECT_NEAR(e.iteration_time_s / r.iteration_time_s, 1.0, 0.01);
}

TEST(IterationCosts, TransportFractionScalesARingAllReduceExactly) {
  // dp 4 over four hosts behind TCP NICs: the ring all-reduce's closed form at the achieved bandwidth.
  const std::string text =
      "name: tcp-ring\n"
      "platform:\n"
      "  regions:\n"
      "    - {name: dc, hosts: 4, gpus_per_host: 1, gpu: V100-16GB,\n"
      "       host_link: {bandwidth: 10Gbps, latency: 50us, transport: tcp}}\n"
      "job:\n"
      "  model: {layers: 2, hidden: 1024, heads: 16, seq_len: 128, vocab: 1000}\n"
      "  global_batch: 4\n"
      "  parallelism: {dp: 4}\n"
      "  step_costs: false\n"
      "  check_memory: false\n";
  const hulk::Scenario s = hulk::load_scenario(write_temp_file("hulk_iteration_costs_tests", "tcp.yaml", text));
  const double f = hulk::TransportCatalog::builtin().find("tcp")->achieved;
  const double S = hulk::compute_job_cost(s.only_job()).stages[0].dp_grad_bytes;
  const int n = 4;
  const double expected = 2 * (n - 1) * 2 * 50e-6 + 2.0 * (n - 1) / n * S / (10e9 / 8 * f);
  const hulk::SimResult r = hulk::simulate(s, hulk::round_robin_placement(s));
  EXPECT_NEAR(r.comm_dp_s / expected, 1.0, 0.01) << r.comm_dp_s << " vs " << expected;
}
