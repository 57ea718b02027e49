#pragma once
/** @file result_summary.hpp
 *  @brief `hulk simulate`'s human summary of a result.json (times, MFU, estimate, DiLoCo round, events, bytes). */
#include <nlohmann/json.hpp>

namespace hulk::cli {

/** @brief Prints the summary of a simulate result (result.json's content) on stdout, 4 decimals. */
void print_summary(const nlohmann::json& r);

}  // namespace hulk::cli
