#pragma once
/** @file statistics.hpp
 *  @brief The summary statistics every report prints, defined once: a median is the mean of the two middle values
 *  of an even count (gen-data and gnn-eval once printed different medians of the same four gaps). */
#include <vector>

namespace hulk {

/** @brief Median of `values` (the mean of the two middle ones for an even count); NaN if empty. */
double median(std::vector<double> values);

/** @brief The `fraction` quantile (0..1) of `values`, linear between the two nearest ranks (numpy's default):
 *  fraction 0.5 is the median, 1 the largest; NaN if empty. */
double quantile(std::vector<double> values, double fraction);

/** @brief Kendall's tau-b between two equally long lists (pairs tied in either list count as neither concordant nor
 *  discordant, and the denominator is corrected for them): 1 when both order the items alike, -1 when reversed;
 *  NaN with fewer than two items or when one list is all ties. */
double kendall_tau(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace hulk
