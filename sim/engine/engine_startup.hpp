#pragma once
/** @file engine_startup.hpp
 *  @brief The one place that creates and configures SimGrid's engine (DESIGN.md "SimGrid facts": analytic network
 *  model, no TCP window, no cross-traffic, small actor stacks, set before any platform exists). */
#include <memory>

#include "sim/core/spec.hpp"

namespace simgrid {
namespace s4u {
class Engine;
}
}  // namespace simgrid

namespace hulk {

/** @brief How loud SimGrid may be. */
enum class EngineLog {
  warnings,   ///< simulations: normal runs print nothing, real SimGrid problems (warnings and worse) still show
  critical,   ///< describing a user's XML file: its own quirks are the user's business, only fatal errors show
};

/** @brief Creates this process's SimGrid engine (at most one per process: it cannot be reset) and configures it:
 *  log threshold, network/model, network/TCP-gamma (bytes), network/crosstraffic, contexts/stack-size (KiB).
 *  Call before creating or loading any platform; keep the engine alive while SimGrid objects are used. */
std::unique_ptr<simgrid::s4u::Engine> start_engine(const NetworkSpec& network, EngineLog log = EngineLog::warnings);

}  // namespace hulk
