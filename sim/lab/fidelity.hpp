#pragma once
/** @file fidelity.hpp
 *  @brief `hulk fidelity`: simulated against measured iteration times. Per hardware series, the job utilisation is
 *  solved on the series' calibration point (the simulated time equals the measured one: a secant/bisection search
 *  on log utilisation, since iteration time is not proportional to 1/utilisation once communication matters), then
 *  that one utilisation is applied to every other point of the series. Nothing is fitted per case. */
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sim/core/collective_bench.hpp"
#include "sim/core/spec.hpp"
#include "sim/lab/fidelity_manifest.hpp"

namespace hulk {

/** @brief The simulated seconds per iteration of a scenario (its job.utilisation already set). */
using IterationSimulator = std::function<double(const Scenario&)>;

/** @brief The default simulator: the scenario's own placement (compute_placement in a child process), then
 *  SimGrid in a child process (simulated_iteration_time_s). */
double simulate_scenario_iteration_s(const Scenario& scenario);

/** @brief The simulated seconds of a collective benchmark (its transport fractions already set). */
using CollectiveSimulator = std::function<double(const CollectiveBenchSpec&)>;

/** @brief The default: SimGrid in a child process (simulate_collective_isolated). */
double simulate_collective_time_s(const CollectiveBenchSpec& spec);

/** @brief Lowest utilisation the calibration tries. */
constexpr double kMinCalibratedUtilisation = 1e-6;

/** @brief Outcome of solving the utilisation of one calibration point. */
struct Calibration {
  double utilisation = 0;   ///< in (0, 1]
  double simulated_s = 0;   ///< simulated time at that utilisation
  int simulations = 0;      ///< simulations run
  bool reached = false;     ///< |simulated/measured - 1| <= tolerance
  bool faster_at_lowest = false;  ///< not reached: even kMinCalibratedUtilisation ran faster than measured
};

/** @brief Solves time_of(u) = target_s for u in [1e-6, 1], time_of decreasing in u. Secant steps on
 *  (1/u, time) from start_u (the first step assumes time proportional to 1/u), kept inside the bracket found so
 *  far (bisection otherwise). Stops at relative tolerance rel_tol or after max_simulations, keeping the closest
 *  simulation; if even u = 1 is slower than the target, returns u = 1 with reached = false. */
Calibration calibrate_utilisation(const std::function<double(double)>& time_of, double target_s, double start_u,
                                  double rel_tol = 1e-6, int max_simulations = 40);

/** @brief One point of the table. */
struct FidelityRow {
  FidelityPoint point;
  double measured_s = 0;                 ///< the measurement converted to seconds per iteration
  std::optional<double> simulated_s;     ///< absent if the simulation failed
  std::string failure;                   ///< why it failed ("" if it ran)
  /** @brief (simulated - measured) / measured; only when simulated_s is set. */
  double error() const { return (*simulated_s - measured_s) / measured_s; }
};

/** @brief One series: its calibration and its rows in manifest order. */
struct FidelitySeries {
  std::string name;
  /** @brief "" for training runs (the job utilisation is calibrated); for collective benchmarks the transport
   *  whose achieved fraction is (Calibration::utilisation then holds that fraction). */
  std::string transport;
  std::string calibration_case;
  std::optional<Calibration> calibration;  ///< absent if the calibration point could not be simulated
  std::vector<FidelityRow> rows;
};

/** @brief Median and maximum |error| over the rows that are not calibration points and ran. */
struct ErrorSummary {
  int count = 0;
  double median_abs = 0, max_abs = 0;  ///< fractions; meaningful only if count > 0
};

/** @brief Summary over some rows. */
ErrorSummary summarize_errors(const std::vector<const FidelityRow*>& rows);

/** @brief Runs every series of the manifest (or only those named in `only`, in manifest order). A point whose
 *  file is a collective benchmark (collective_bench_file.hpp) is simulated by `simulate_bench` with its series'
 *  transport at the calibrated fraction; every other point by `simulate` at the calibrated utilisation. Scenarios are
 *  loaded first (a bad one throws InputError); a point whose simulation fails is kept with its reason. Progress
 *  (one line per simulation) goes to `progress` when not null. @throws InputError if `only` names an unknown series. */
std::vector<FidelitySeries> run_fidelity(const FidelityManifest& manifest, const std::vector<std::string>& only,
                                         const IterationSimulator& simulate, std::ostream* progress,
                                         const CollectiveSimulator& simulate_bench = simulate_collective_time_s);

/** @brief The printed table: one row per point (series, case, measured s, simulated s, error %, source; the
 *  calibration point marked), then per series its utilisation and error summary, then the summary over all
 *  series. Deterministic (fixed formats, manifest order). */
std::string fidelity_table(const std::vector<FidelitySeries>& series, const std::string& manifest_file);

}  // namespace hulk
