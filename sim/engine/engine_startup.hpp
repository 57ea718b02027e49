#pragma once
/** @file engine_startup.hpp
 *  @brief The one place that creates and configures SimGrid's engine (docs/model.md "The platform": analytic network
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

/** @brief True when the engine applies route latency at the receiver and the TCP window as a per-flow rate cap
 *  itself (sg_build_platform, MessageFabric): under CM02, whose bandwidth sharing does not depend on latency.
 *  Other models (LV08, SMPI, IB, Constant) scale latency or derive rates from it, so their links keep their
 *  latency and SimGrid applies the window (TCP-gamma); a queued message there waits for the previous one to
 *  arrive (one latency more per queued message). */
bool latency_at_receiver(const NetworkSpec& network);

/** @brief Creates this process's SimGrid engine (at most one per process: it cannot be reset) and configures it:
 *  log threshold, network/model, network/TCP-gamma (bytes; 0 when latency_at_receiver(network), the engine then
 *  caps each flow itself), network/crosstraffic, contexts/stack-size (KiB), contexts/guard-size (0: no guard pages).
 *  Call before creating or loading any platform; keep the engine alive while SimGrid objects are used. */
std::unique_ptr<simgrid::s4u::Engine> start_engine(const NetworkSpec& network, EngineLog log = EngineLog::warnings);

}  // namespace hulk
