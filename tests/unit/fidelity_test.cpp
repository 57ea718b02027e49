// hulk fidelity's pure parts: the utilisation solver (on analytic time functions, no SimGrid), the conversion of
// measurements to seconds per iteration, and the error summary.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/core/errors.hpp"
#include "sim/lab/fidelity.hpp"
#include "sim/lab/fidelity_manifest.hpp"

namespace hulk {
namespace {

TEST(FidelityCalibration, SolvesComputePlusExposedCommunication) {
  // time = 2 s of exposed communication + 10 s of compute at full peak: not proportional to 1/u.
  auto time_of = [](double u) { return 2.0 + 10.0 / u; };
  const Calibration c = calibrate_utilisation(time_of, 27.0, 0.4);
  EXPECT_TRUE(c.reached);
  EXPECT_NEAR(c.utilisation, 0.4, 1e-6);  // 2 + 10/0.4 = 27
  EXPECT_NEAR(c.simulated_s / 27.0, 1.0, 1e-6);
  const Calibration d = calibrate_utilisation(time_of, 52.0, 0.4);  // u = 0.2
  EXPECT_TRUE(d.reached);
  EXPECT_NEAR(d.utilisation, 0.2, 1e-6);
  EXPECT_LE(d.simulations, 4);  // affine in 1/u: the secant is exact after two points
}

TEST(FidelityCalibration, ConvergesOnACurvedTimeFunction) {
  // Communication partly hidden behind compute: max(comm, compute) + a little, a kink the secant must bracket.
  auto time_of = [](double u) { return std::max(5.0, 3.0 / u) + 0.1 / u; };
  const Calibration c = calibrate_utilisation(time_of, 20.0, 0.9);
  EXPECT_TRUE(c.reached);
  EXPECT_NEAR(time_of(c.utilisation) / 20.0, 1.0, 1e-6);
}

TEST(FidelityCalibration, ReportsAnUnreachableMeasurement) {
  // Even at full peak the run takes 5 s, the measurement says 4 s: u = 1, not reached.
  auto time_of = [](double u) { return 4.5 + 0.5 / u; };
  const Calibration c = calibrate_utilisation(time_of, 4.0, 0.4);
  EXPECT_FALSE(c.reached);
  EXPECT_DOUBLE_EQ(c.utilisation, 1.0);
  EXPECT_NEAR(c.simulated_s, 5.0, 1e-12);
}

TEST(FidelityManifest, ConvertsUnitsToSecondsPerIteration) {
  JobSpec job;
  job.model = {"m", 24, 2304, 24, 2048, 51200};
  job.global_batch = 512;
  job.par = {32, 1, 1};
  FidelityPoint p;
  p.unit = "s";
  p.measured = 3.5;
  EXPECT_DOUBLE_EQ(measured_iteration_time_s(p, job), 3.5);
  p.unit = "tokens/s";
  p.measured = 512.0 * 2048 / 2.0;
  EXPECT_DOUBLE_EQ(measured_iteration_time_s(p, job), 2.0);
  // Megatron-LM SC'21 Table 1, 1.7B: 137 TFLOP/s per GPU on 32 GPUs -> 3.528 s per iteration (eq. 3).
  p.unit = "TFLOP/s/GPU";
  p.measured = 137;
  EXPECT_NEAR(measured_iteration_time_s(p, job), 3.528018, 1e-5);
}

TEST(FidelityManifest, SummaryLeavesOutCalibrationAndFailedPoints) {
  std::vector<FidelityRow> rows(5);
  const double sims[] = {10, 11, 8, 12.5, 0};
  for (int i = 0; i < 5; ++i) {
    rows[i].measured_s = 10;
    if (i < 4) rows[i].simulated_s = sims[i];
  }
  rows[0].point.calibrate = true;
  std::vector<const FidelityRow*> ptrs;
  for (const auto& r : rows) ptrs.push_back(&r);
  const ErrorSummary s = summarize_errors(ptrs);
  EXPECT_EQ(s.count, 3);                  // rows 1..3 (row 0 calibrates, row 4 failed)
  EXPECT_NEAR(s.median_abs, 0.2, 1e-12);  // |errors| 0.1, 0.2, 0.25
  EXPECT_NEAR(s.max_abs, 0.25, 1e-12);
}

/** A manifest of one calibration point on `scenario` (relative to the source tree), `measured` seconds. */
FidelityManifest one_point(const std::string& scenario, double measured) {
  FidelityManifest m;
  m.file = "measured.yaml";
  FidelityPoint p;
  p.series = "s";
  p.case_name = "a";
  p.scenario = std::string(HULK_SOURCE_DIR) + "/" + scenario;
  p.measured = measured;
  p.unit = "s";
  p.calibrate = true;
  p.line = 2;
  m.points.push_back(p);
  return m;
}

std::string run_error(const FidelityManifest& m) {
  try {
    run_fidelity(m, {}, [](const Scenario&) { return 1.0; }, nullptr);
  } catch (const InputError& e) {
    return std::string(e.what()) + " [key " + e.key() + "]";
  }
  return "";
}

TEST(FidelityRun, AScenarioOfSeveralJobsIsRefusedNotCalibratedInVain) {
  // The calibration sets `job.utilisation`, which a `jobs:` list never reads: without the check, seven simulations
  // of one time and "NOT converged", exit 0.
  const std::string msg = run_error(one_point("scenarios/examples/two-jobs.yaml", 2.0));
  EXPECT_NE(msg.find("has 2 jobs (expected a scenario of one job"), std::string::npos) << msg;
  EXPECT_NE(msg.find("[key points.0.scenario]"), std::string::npos) << msg;
  EXPECT_EQ(run_error(one_point("scenarios/examples/two-region-gpt.yaml", 2.0)), "");
}

TEST(FidelityRun, AMeasuredTimeBeyondAMonthIsRefused) {
  // 1e300 s: every simulated time is equally far from it in floating point, so the calibration kept its first.
  const std::string msg = run_error(one_point("scenarios/examples/two-region-gpt.yaml", 1e300));
  EXPECT_NE(msg.find("is 1e+300 s per iteration"), std::string::npos) << msg;
  EXPECT_NE(msg.find("[key points.0.measured]"), std::string::npos) << msg;
}

TEST(FidelityRun, AMeasurementSlowerThanTheLowestUtilisationSaysSo) {
  // Not "utilisation 0.0000 (...; NOT converged)", which hides why. The stand-in simulator: 0.1 s of compute
  // at full peak, so 1e5 s at the lowest utilisation, short of the 1e6 s measured.
  const auto compute_only = [](const Scenario& s) { return 0.1 / s.only_job().utilisation; };
  const std::vector<FidelitySeries> series =
      run_fidelity(one_point("scenarios/examples/two-region-gpt.yaml", 1e6), {}, compute_only, nullptr);
  const std::string table = fidelity_table(series, "measured.yaml");
  EXPECT_NE(table.find("utilisation 1e-06 (calibrated on a"), std::string::npos) << table;
  EXPECT_NE(table.find("NOT reached: even utilisation 1e-6 is faster than measured"), std::string::npos) << table;
  // A simulator that never moves: the same verdict, whichever of its equal times is kept.
  const std::string flat = fidelity_table(
      run_fidelity(one_point("scenarios/examples/two-region-gpt.yaml", 1000.0), {},
                   [](const Scenario&) { return 1.0; }, nullptr),
      "measured.yaml");
  EXPECT_NE(flat.find("NOT reached: even utilisation 1e-6 is faster than measured"), std::string::npos) << flat;
}

}  // namespace
}  // namespace hulk
