#include "sim/place/placer_common.hpp"

#include <map>

namespace hulk {

std::uint64_t fnv1a64(const std::string& text) {
  std::uint64_t h = 14695981039346656037ULL;  // FNV-1a 64 offset basis
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

std::uint64_t component_seed(std::uint64_t scenario_seed, const std::string& component) {
  // SplitMix64 finaliser: nearby scenario seeds give unrelated streams.
  std::uint64_t z = scenario_seed + 0x9E3779B97F4A7C15ULL * (fnv1a64(component) | 1ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

Placement placement_from_hosts(const std::vector<int>& host_of_rank) {
  Placement p;
  std::map<int, int> next_slot;
  p.gpu_of_rank.reserve(host_of_rank.size());
  for (int h : host_of_rank) p.gpu_of_rank.push_back({h, next_slot[h]++});
  return p;
}

std::vector<int> hosts_of(const Placement& placement) {
  std::vector<int> out;
  out.reserve(placement.gpu_of_rank.size());
  for (const auto& g : placement.gpu_of_rank) out.push_back(g.host);
  return out;
}

}  // namespace hulk
