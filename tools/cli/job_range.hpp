#pragma once
/** @file job_range.hpp
 *  @brief The one reading of `--jobs N` / `--jobs MIN-MAX` (gen-data, jobs-eval): jobs per generated cluster. */
#include <regex>
#include <string>

#include "sim/core/errors.hpp"

namespace hulk::cli {

/** @brief Jobs per generated cluster, MIN..MAX. */
struct JobRange {
  int min = 0, max = 0;
};

/** @brief Reads "N" or "MIN-MAX" (whole numbers, 2 <= MIN <= MAX <= 8). @throws InputError naming --jobs and the
 *  text for anything else ("2-3-4", "2.5", "3-1", "abc"). */
inline JobRange parse_job_range(const std::string& text) {
  static const std::regex form("([0-9]{1,2})(-([0-9]{1,2}))?");
  std::smatch m;
  JobRange r;
  if (std::regex_match(text, m, form)) {
    r.min = std::stoi(m[1].str());
    r.max = m[3].matched ? std::stoi(m[3].str()) : r.min;
  }
  if (r.min < 2 || r.max > 8 || r.min > r.max)
    throw InputError("", 0, "--jobs", "expected N or MIN-MAX with 2 <= MIN <= MAX <= 8, got '" + text + "'");
  return r;
}

/** @brief Refuses a range whose MAX jobs could not each have a GPU of their own on a cluster of max_gpus GPUs.
 *  @throws InputError naming --jobs and both numbers. */
inline void check_jobs_fit_gpus(const JobRange& r, int max_gpus) {
  if (r.max > max_gpus)
    throw InputError("", 0, "--jobs", "expected at most as many jobs as --max-gpus allows GPUs (" +
                                          std::to_string(max_gpus) + "), got up to " + std::to_string(r.max));
}

}  // namespace hulk::cli
