#pragma once
/** @file format_version.hpp
 *  @brief Versions of the files gnn/ reads and writes; bump on any incompatible change. */

namespace hulk::gnn {

/** @brief Version of the GNN data-set format written by `hulk gnn gen-data`. */
constexpr int kDatasetFormatVersion = 1;
/** @brief Version of the model checkpoint format written by `hulk gnn train`. */
constexpr int kModelFormatVersion = 3;  // 2: reference-role node features, prior_scale; 3: weights digest

/** @brief Human-readable summary printed by `hulk --version` (e.g. "dataset format 1, model format 3"). */
const char* format_summary();

}  // namespace hulk::gnn
