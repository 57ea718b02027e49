// Simulating on a platform loaded from a SimGrid XML file: hosts mapped by name, GPU speed from the options
// (not the XML host speed), routes from the file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "sim/workload/cost_model.hpp"
#include "sim/place/placer.hpp"
#include "sim/engine/simgrid_xml.hpp"
#include "sim/engine/simulator.hpp"
#include "sim_fixtures.hpp"

namespace {
std::string write_xml() {
  char path[] = "/tmp/hulk_xml_sim_XXXXXX";
  int fd = mkstemp(path);
  close(fd);
  std::ofstream(path) << R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="dc" routing="Full">
    <host id="b" speed="1Gf"/>
    <host id="a" speed="7Gf"/>
    <link id="l" bandwidth="1GBps" latency="1ms"/>
    <route src="b" dst="a"><link_ctn id="l"/></route>
  </zone>
</platform>
)";
  return path;
}

/** Options of the test XML: every host gets 2 GPUs of 1 Tflop/s (fp16 and fp32). */
hulk::SimgridXmlOptions two_gpus_per_host(const std::string& path) {
  hulk::SimgridXmlOptions o;
  o.file = path;
  o.has_default = true;
  o.default_gpus.count = 2;
  o.default_gpus.gpu = hulk_test::infinite_gpu();
  o.default_gpus.gpu.fp16_flops = o.default_gpus.gpu.fp32_flops = 1e12;
  return o;
}
}  // namespace

TEST(XmlSimulate, PipelineOverXmlRoutesAndGpuSpeedFromOptions) {
  const std::string path = write_xml();
  const hulk::SimgridXmlOptions o = two_gpus_per_host(path);
  hulk::Scenario s = hulk_test::scenario(hulk::describe_simgrid_xml(o), hulk_test::small_job(1, 1, 2, 2, 1));
  ASSERT_EQ(s.platform.hosts[0].name, "b");
  // Stage 0 on host b, stage 1 on host a (one GPU each).
  hulk::Placement pl;
  pl.gpu_of_rank = {{0, 0}, {1, 0}};
  const hulk::JobCost cost = hulk::compute_job_cost(s.only_job());
  const double tf = cost.stages[0].fwd_flops_per_mb() / 1e12;
  const double msg = 1e-3 + cost.pp_message_bytes / 1e9;
  // F0 on b, activation, F1+B1 on a, gradient, B0 on b: 6 tf + 2 messages.
  const double expected = 6 * tf + 2 * msg;
  hulk::SimResult r = hulk::simulate(s, pl);  // loads the XML again, in this process
  std::remove(path.c_str());
  EXPECT_NEAR(r.iteration_time_s / expected, 1.0, 0.01) << r.iteration_time_s << " vs " << expected;
  EXPECT_NEAR(r.compute_s / (3 * tf), 1.0, 0.01);
}

TEST(XmlSimulate, GpusOfOneXmlHostComputeConcurrently) {
  // Two data-parallel ranks on the two GPUs of XML host "a" (1 core in the XML): each GPU is a bounded share of
  // the host, so both compute at full GPU speed at the same time.
  const std::string path = write_xml();
  const hulk::SimgridXmlOptions o = two_gpus_per_host(path);
  hulk::Scenario s = hulk_test::scenario(hulk::describe_simgrid_xml(o), hulk_test::small_job(2, 1, 1, 2, 1));
  hulk::Placement pl;
  pl.gpu_of_rank = {{1, 0}, {1, 1}};
  const double tf = hulk::compute_job_cost(s.only_job()).stages[0].fwd_flops_per_mb() / 1e12;
  hulk::SimResult r = hulk::simulate(s, pl);
  std::remove(path.c_str());
  EXPECT_NEAR(r.compute_s / (3 * tf), 1.0, 0.01) << r.compute_s << " vs " << 3 * tf;
  EXPECT_GT(r.bytes.intra_host, 0);
}
