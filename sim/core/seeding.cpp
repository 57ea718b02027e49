#include "sim/core/seeding.hpp"

namespace hulk {

std::uint64_t fnv1a64(const std::string& text) {
  std::uint64_t h = 14695981039346656037ULL;  // FNV-1a 64 offset basis
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;  // FNV 64 prime
  }
  return h;
}

std::uint64_t splitmix64_mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

std::uint64_t stream_seed(std::uint64_t seed, std::uint64_t stream) {
  return splitmix64_mix(seed + 0x9E3779B97F4A7C15ULL * stream);  // golden-ratio gamma of SplitMix64
}

std::uint64_t component_seed(std::uint64_t scenario_seed, const std::string& component) {
  // "| 1": an odd stream index, kept from the first version so existing seeds (and searches) do not change.
  return stream_seed(scenario_seed, fnv1a64(component) | 1ULL);
}

}  // namespace hulk
