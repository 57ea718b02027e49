#pragma once
/** @file units.hpp
 *  @brief Unit strings at the YAML boundary ("10Gbps", "74ms", "40GB", "312Tf") -> SI doubles.
 *  Each parser throws std::invalid_argument with a message saying what was expected; the scenario loader
 *  wraps it into an InputError naming file, key and line. */
#include <string>

namespace hulk {

/** @brief "10Gbps", "0.6Gbps", "100Mbps", "1.25GBps", "800kbps", "1e9" (plain number = bytes/s) -> bytes/s (> 0).
 *  Lower-case b = bits, upper-case B = bytes; k/M/G/T are powers of 1000. */
double parse_bandwidth_Bps(const std::string& text);
/** @brief "50us", "74ms", "0.1s", "100ns", "0" or a plain number (seconds) -> seconds (>= 0). */
double parse_latency_s(const std::string& text);
/** @brief "40GB", "16GiB", "512MB", plain number = bytes -> bytes (> 0). GB = 1e9, GiB = 2^30. */
double parse_bytes(const std::string& text);
/** @brief "312Tf", "19.5TFLOPS", "125e12", "900Gf" -> flop/s (> 0). */
double parse_flops(const std::string& text);
/** @brief True (and value set) if the whole of `text` is a finite number in plain decimal: digits, sign, point and
 *  exponent only. strtod alone also takes hex ("0x10", "0x1p-3"), "inf" and "nan", and stops at a NUL. */
bool parse_plain_decimal(const std::string& text, double& value);

}  // namespace hulk
