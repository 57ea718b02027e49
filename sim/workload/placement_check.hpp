#pragma once
/** @file placement_check.hpp
 *  @brief What makes a placement valid for a scenario: one distinct GPU per rank, and (optionally) every rank's
 *  stage fits in its GPU's memory. One definition, used by the simulator, the placers and the file reader. */
#include <string>
#include <vector>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Every GPU of the platform in listed order (host by host, slot by slot). */
std::vector<GpuSlot> all_gpus(const PlatformSpec& platform);

/** @brief Why a placement is invalid ("" if valid): wrong rank count, unknown host/slot, GPU used twice,
 *  or (if check_memory) a rank whose stage does not fit in its GPU's memory. */
std::string placement_problem(const Scenario& scenario, const Placement& placement, bool check_memory);

}  // namespace hulk
