#pragma once
/** @file placement.hpp
 *  @brief The Placer interface, placement validity, and the placement JSON format (what `hulk simulate` writes
 *  and `placement: file:PATH.json` reads). */
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "spec.hpp"

namespace hulk {

/** @brief A placement method: maps every rank of scenario.job to a distinct GPU of scenario.platform. */
class Placer {
 public:
  virtual ~Placer() = default;
  /** @brief Method name as used on the command line ("round-robin", "greedy", ...). */
  virtual std::string name() const = 0;
  /** @brief Computes a valid placement (memory respected). @throws InputError if none exists. */
  virtual Placement place(const Scenario& scenario) = 0;
};

/** @brief Every GPU of the platform in listed order (host by host, slot by slot). */
std::vector<GpuSlot> all_gpus(const PlatformSpec& platform);

/** @brief round-robin (DESIGN.md): rank r -> host (r mod H), slot (r div H), skipping hosts that are full. */
Placement round_robin_placement(const Scenario& scenario);

/** @brief Why a placement is invalid ("" if valid): wrong rank count, unknown host/slot, GPU used twice,
 *  or (if check_memory) a rank whose stage does not fit in its GPU's memory. */
std::string placement_problem(const Scenario& scenario, const Placement& placement, bool check_memory);

/** @brief Placement as JSON: {"parallelism": {dp,tp,pp}, "ranks": [{"rank", "host", "slot", "region"}...]}. */
nlohmann::json placement_to_json(const Scenario& scenario, const Placement& placement);

/** @brief Reads a placement from JSON (the object above, or a result.json holding it under "placement").
 *  Host names resolve against the scenario's platform. @throws InputError naming file and key. */
Placement placement_from_json(const Scenario& scenario, const nlohmann::json& doc, const std::string& file);

/** @brief Reads a placement file. @throws InputError on a missing/malformed file or a placement that does not
 *  match the scenario. */
Placement load_placement_file(const Scenario& scenario, const std::string& path);

}  // namespace hulk
