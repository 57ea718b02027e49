#pragma once
/** @file seeding.hpp
 *  @brief The one home of stable hashing and seed derivation: FNV-1a 64 of names and SplitMix64-mixed streams.
 *  Everything here is fixed arithmetic, so seeds (and thus sampled scenarios, placements, data sets) are the same
 *  on every platform and standard library; std::hash is not specified to be. */
#include <cstdint>
#include <string>

namespace hulk {

/** @brief 64-bit FNV-1a hash of a string (offset basis 14695981039346656037, prime 1099511628211). */
std::uint64_t fnv1a64(const std::string& text);

/** @brief SplitMix64 finaliser (Steele, Lea, Flood 2014): a bijective 64-bit mix whose nearby inputs give
 *  unrelated outputs. */
std::uint64_t splitmix64_mix(std::uint64_t z);

/** @brief Seed of stream `stream` derived from `seed`: splitmix64_mix(seed + golden_gamma * stream), the SplitMix64
 *  step. Different streams of one seed, and one stream of nearby seeds, are unrelated. */
std::uint64_t stream_seed(std::uint64_t seed, std::uint64_t stream);

/** @brief Seed of a named random stream: stream_seed(scenario_seed, fnv1a64(component) | 1). */
std::uint64_t component_seed(std::uint64_t scenario_seed, const std::string& component);

}  // namespace hulk
