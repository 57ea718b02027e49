#pragma once
/** @file option_ranges.hpp
 *  @brief The ranges of the options that count work or seed it: every `--budget` (search evaluations), `compare
 *  --robust-states`, the sampling commands' `--max-gpus` and every `--seed`. A negative count means nothing and a
 *  huge one runs for days without a word: both are refused as bad input (exit 2), naming the option. */
#include <CLI/CLI.hpp>

#include <string>
#include <type_traits>

namespace hulk::cli {

/** @brief Checks a number from lo to hi (both included), saying what it expected: CLI::Range says "not in range" of
 *  a word that is no number at all (`--budget abc`). NaN is out of every range. */
template <typename T>
CLI::Validator number_range(T lo, T hi) {
  const std::string kind = std::is_integral<T>::value ? "an integer" : "a number";
  const std::string bounds = CLI::detail::to_string(lo) + " to " + CLI::detail::to_string(hi);
  return CLI::Validator(
      [=](std::string& text) {
        T value{};
        if (!CLI::detail::lexical_cast(text, value))
          return "expected " + kind + " from " + bounds + ", got '" + text + "'";
        if (!(value >= lo && value <= hi))
          return "'" + text + "' is out of range (expected " + kind + " from " + bounds + ")";
        return std::string();
      },
      "[" + CLI::detail::to_string(lo) + " - " + CLI::detail::to_string(hi) + "]");
}

/** @brief The largest --budget: 5,000 times the search's default 20,000 (hours of annealing on a 47-host cluster). */
constexpr long kMaxBudget = 100000000;

/** @brief The largest --robust-states: each state is one SimGrid run per method. */
constexpr int kMaxRobustStates = 10000;

/** @brief Checks a --budget value: 0 (the method's default) to kMaxBudget. */
inline CLI::Validator budget_range() { return number_range(0L, kMaxBudget); }

/** @brief Checks a sampled platform's --max-gpus: at least the sampler's smallest platform (4 GPUs; below, every
 *  draw was skipped and an empty data set written), at most a million GPUs (the scenario bound). */
inline CLI::Validator sampled_gpus_range() { return number_range(4, 1000000); }

/** @brief Checks a --seed: a whole number >= 0 ("-1" would wrap to 2^64 - 1 in an unsigned seed). */
inline CLI::Validator seed_check() {
  return CLI::Validator(
      [](std::string& text) {
        if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
          return "expected a seed, a whole number >= 0, got '" + text + "'";
        // Larger than 2^64 - 1 was clamped to it without a word (and a range of seeds then wrapped around to 0).
        const std::string digits = text.substr(std::min(text.find_first_not_of('0'), text.size()));
        const std::string largest = "18446744073709551615";
        if (digits.size() > largest.size() || (digits.size() == largest.size() && digits > largest))
          return "seed '" + text + "' is out of range (expected a whole number from 0 to " + largest + ")";
        return std::string();
      },
      "SEED", "seed");
}

}  // namespace hulk::cli
