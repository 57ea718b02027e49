#pragma once
/** @file scenario_json.hpp
 *  @brief JSON (de)serialisation of the plain structs the GNN data set stores: Scenario (platform, network, job),
 *  Placement (as [[host, slot], ...] in rank order) and TrafficMatrix (sparse list of host pairs). Pure code.
 *  Doubles are written with nlohmann's shortest round-trip form, so to_json -> from_json is exact.
 *  Every reader throws InputError naming the file and the key path of the bad value. */
#include <string>

#include <nlohmann/json.hpp>

#include "sim/core/traffic_matrix.hpp"
#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Scenario -> JSON object (all fields of spec.hpp, SI units, key names = field names). */
nlohmann::json scenario_to_json(const Scenario& scenario);
/** @brief JSON -> Scenario. @param file used in error messages. @throws InputError on a missing/mistyped key. */
Scenario scenario_from_json(const nlohmann::json& doc, const std::string& file);

/** @brief Placement -> [[host, slot], ...] (index = rank). */
nlohmann::json placement_slots_to_json(const Placement& placement);
/** @brief [[host, slot], ...] -> Placement. @throws InputError naming file and key. */
Placement placement_slots_from_json(const nlohmann::json& doc, const std::string& file, const std::string& key);

/** @brief TrafficMatrix -> {"hosts": H, "pairs": [{"a", "b", "bytes": [dp, tp, pp], "busy_s": [dp, tp, pp]}]}
 *  with a <= b and only pairs carrying traffic. */
nlohmann::json traffic_to_json(const TrafficMatrix& traffic);
/** @brief Inverse of traffic_to_json. @throws InputError naming file and key. */
TrafficMatrix traffic_from_json(const nlohmann::json& doc, const std::string& file, const std::string& key);

}  // namespace hulk
