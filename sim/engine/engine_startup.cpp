#include "sim/engine/engine_startup.hpp"

#include <string>

#include <simgrid/s4u/Engine.hpp>
#include <xbt/log.h>

namespace hulk {

namespace sg4 = simgrid::s4u;

bool latency_at_receiver(const NetworkSpec& network) { return network.model == "CM02"; }

std::unique_ptr<sg4::Engine> start_engine(const NetworkSpec& network, EngineLog log) {
  // SimGrid parses --cfg=... options from argv; we pass none (all settings come from the scenario).
  int argc = 1;
  char arg0[] = "hulk";
  char* argv[] = {arg0, nullptr};
  auto engine = std::make_unique<sg4::Engine>(&argc, argv);
  xbt_log_control_set(log == EngineLog::warnings ? "root.thresh:warning" : "root.thresh:critical");
  sg4::Engine::set_config("network/model:" + network.model);
  const double gamma = latency_at_receiver(network) ? 0.0 : network.tcp_window_bytes;
  sg4::Engine::set_config("network/TCP-gamma:" + std::to_string(gamma));
  sg4::Engine::set_config(std::string("network/crosstraffic:") + (network.crosstraffic ? "1" : "0"));
  // KiB. Rank actors recurse only a few frames deep; 10k actors x 128 KiB = 1.3 GB virtual, pages touched only
  // when used (measured: see the simulator benchmark in the report).
  sg4::Engine::set_config("contexts/stack-size:128");
  // No guard page below each actor's stack: SimGrid mprotects one per actor, a memory mapping of its own, and 65,536
  // ranks plus their couriers exceed Linux's default vm.max_map_count (65,530), which SimGrid aborts on. Stacks
  // then come from malloc; the rank actors' shallow recursion stays far inside 128 KiB.
  sg4::Engine::set_config("contexts/guard-size:0");
  return engine;
}

}  // namespace hulk
