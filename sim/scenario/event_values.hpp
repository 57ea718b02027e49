#pragma once
/** @file event_values.hpp
 *  @brief The values of `events:` entries and trace rows (scenario_events.cpp): times, shares and bandwidths, each
 *  checked against its range. Every function returns "" and stores the value, or returns the problem to report. */
#include <string>

#include "sim/core/spec.hpp"

namespace hulk::detail {

/** @brief Largest "N%" factor of a bandwidth or speed event (10000%). */
constexpr double kMaxEventFactor = 100;
/** @brief Smallest "N%" factor of any share (0.01%): a link or GPU at most 10,000 times slower than its own. Without
 *  it '1e-300%' passed and an iteration lasted 1e301 s, past every absolute bound (scenarios/README.md "Bounds"). */
constexpr double kMinShareFactor = 1e-4;

/** @brief s without leading and trailing white space. */
std::string trim(const std::string& s);

/** @brief "12.5 s". */
std::string seconds_text(double v);

/** @brief A time (the units of a latency, or plain seconds) within 0 .. 1e8 s (three years of simulated time; any
 *  run is far shorter), stored in out. */
std::string time_problem(const std::string& text, double& out);

/** @brief A share "N%" in (0%, max_factor x 100%], stored in out (what: e.g. "a share of the link's bandwidth"). */
std::string share_problem(const std::string& text, double max_factor, const std::string& what, double& out);

/** @brief A share "N%" (-> e.bandwidth_factor) or a bandwidth with units (-> e.bandwidth_Bps). */
std::string bandwidth_problem(const std::string& text, EventSpec& e);

}  // namespace hulk::detail
