#pragma once
/** @file did_you_mean.hpp
 *  @brief Closest-name suggestions for unknown keys and names (Levenshtein edit distance). */
#include <string>
#include <vector>

namespace hulk {

/** @brief Levenshtein distance (insert, delete, substitute each cost 1), case-sensitive. */
std::size_t edit_distance(const std::string& a, const std::string& b);

/** @brief The candidate closest to word (case-insensitive), or "" if none is close enough: distance at most
 *  max(2, |word| / 3). Ties go to the earlier candidate, so the answer is deterministic. */
std::string closest_name(const std::string& word, const std::vector<std::string>& candidates);

/** @brief " (did you mean 'X'?)" when a close candidate exists, else " (expected one of: a, b, c)"
 *  (empty if there are no candidates). */
std::string suggestion_suffix(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace hulk
