#pragma once
/** @file fidelity_manifest.hpp
 *  @brief The manifest of `hulk fidelity` (scenarios/validation/measured.yaml): published measurements of real
 *  training runs, each reproduced by one scenario, grouped in hardware series with one calibration point each, and
 *  the conversion of each measurement to seconds per iteration. */
#include <string>
#include <vector>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief One measured run. */
struct FidelityPoint {
  std::string series;      ///< hardware series (one calibrated utilisation per series)
  std::string case_name;   ///< unique inside its series
  std::string scenario;    ///< absolute path of the scenario file (resolved against the manifest's folder)
  double measured = 0;     ///< as published, in `unit`
  std::string unit;        ///< "s" | "tokens/s" | "TFLOP/s/GPU" | "GB/s busbw" (a collective benchmark's bus bandwidth)
  /** @brief A collective benchmark's series: the transport whose achieved fraction is calibrated instead of the
   *  job utilisation ("" for training runs). Every point of a series names the same one, or none. */
  std::string transport;
  std::string source;      ///< paper/repository, table/figure, row
  bool calibrate = false;  ///< the series' calibration point
  int line = 0;            ///< line of the point in the manifest (for messages)
};

/** @brief A parsed manifest: the points in file order. */
struct FidelityManifest {
  std::string file;
  std::vector<FidelityPoint> points;
  /** @brief Series names in order of first appearance. */
  std::vector<std::string> series() const;
};

/** @brief The units a measurement may have. */
const std::vector<std::string>& fidelity_units();

/** @brief Reads and checks a manifest: a map with `points` (a non-empty list) and an optional `description`; each
 *  point has series, case, scenario, measured (> 0), unit, source and an optional calibrate (bool); unknown keys,
 *  a missing scenario file, a case named twice in a series, a series without exactly one calibration point, a
 *  `GB/s busbw` point without `transport`, and a series whose points name different transports (or some none) are
 *  errors. Scenario files are not parsed here.
 *  @throws InputError(file, line, key path like "points.3.unit", what was expected). */
FidelityManifest read_fidelity_manifest(const std::string& path);

/** @brief FLOPs of one training iteration by Megatron-LM's eq. 3 (Narayanan et al. SC'21, with activation
 *  recomputation): 96 B s l h^2 (1 + s/(6h) + V/(16 l h)), B = global batch. */
double megatron_iteration_flops(const JobSpec& job);

/** @brief A benchmark's measurement in seconds: s as is; GB/s busbw -> bytes x bus factor / (value x 1e9) (nccl-tests'
 *  busbw = algbw x bus factor, algbw = bytes / time). */
double measured_collective_time_s(const FidelityPoint& point, double bytes, double bus_factor);

/** @brief The measurement in seconds per iteration: s as is; tokens/s -> global_batch x seq_len / value;
 *  TFLOP/s/GPU -> megatron_iteration_flops / (value x 1e12 x dp x tp x pp). */
double measured_iteration_time_s(const FidelityPoint& point, const JobSpec& job);

}  // namespace hulk
