// Pipeline schedules: every micro-batch once forward and once backward, forward before backward, Megatron's
// 1F1B warm-up, and in-flight activations equal to what the cost model charges.
#include <gtest/gtest.h>

#include "sim/workload/cost_model.hpp"
#include "sim/workload/pipeline_schedule.hpp"

using hulk::PipeOp;

namespace {
void expect_complete(const std::vector<PipeOp>& ops, int m) {
  std::vector<int> fwd_at(m, -1), bwd_at(m, -1);
  for (size_t i = 0; i < ops.size(); ++i) {
    auto& slot = ops[i].forward ? fwd_at[ops[i].micro_batch] : bwd_at[ops[i].micro_batch];
    EXPECT_EQ(slot, -1) << "micro-batch done twice";
    slot = static_cast<int>(i);
  }
  for (int k = 0; k < m; ++k) {
    EXPECT_GE(fwd_at[k], 0);
    EXPECT_GT(bwd_at[k], fwd_at[k]);
    if (k > 0) {  // FIFO order of messages per rank pair relies on this
      EXPECT_GT(fwd_at[k], fwd_at[k - 1]);
      EXPECT_GT(bwd_at[k], bwd_at[k - 1]);
    }
  }
  EXPECT_EQ(ops.size(), static_cast<size_t>(2 * m));
}
}  // namespace

TEST(PipelineSchedule, AllSchedulesComplete) {
  for (const char* s : {"gpipe", "1f1b"})
    for (int p : {1, 2, 4, 8})
      for (int i = 0; i < p; ++i)
        for (int m : {1, 3, 8, 16}) expect_complete(hulk::pipeline_schedule(s, p, i, m), m);
}

TEST(PipelineSchedule, OneFOneBWarmupMatchesMegatron) {
  // p = 4, stage 1, m = 6: warm-up 2 forwards, then F B F B F B F B, then B B.
  auto ops = hulk::pipeline_schedule("1f1b", 4, 1, 6);
  std::string got;
  for (auto& o : ops) got += (o.forward ? "F" : "B") + std::to_string(o.micro_batch) + " ";
  EXPECT_EQ(got, "F0 F1 F2 B0 F3 B1 F4 B2 F5 B3 B4 B5 ");
  auto last = hulk::pipeline_schedule("1f1b", 4, 3, 3);
  EXPECT_TRUE(last[0].forward);
  EXPECT_FALSE(last[1].forward);  // last stage: strictly alternating
}

TEST(PipelineSchedule, InFlightMatchesCostModel) {
  hulk::JobSpec job;
  job.model = {"t", 8, 256, 4, 128, 1000};
  job.global_batch = 16;
  job.micro_batch = 1;
  job.par = {1, 1, 4};
  for (const char* s : {"gpipe", "1f1b"}) {
    job.schedule = s;
    hulk::JobCost cost = hulk::compute_job_cost(job);
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(hulk::max_in_flight(hulk::pipeline_schedule(s, 4, i, 16)), cost.stages[i].in_flight_micro_batches)
          << s << " stage " << i;
  }
  EXPECT_LT(hulk::max_in_flight(hulk::pipeline_schedule("1f1b", 4, 0, 16)),
            hulk::max_in_flight(hulk::pipeline_schedule("gpipe", 4, 0, 16)));
}
