#pragma once
/** @file hulk_import.hpp
 *  @brief Importer for the Hulk paper's measured data (node_feature.csv + edge.txt, 47 servers in 12 cities).
 *  Servers -> hosts, cities -> regions, measured latencies -> per-host-pair latencies; missing pairs are routed
 *  over the measured graph (Boost.Graph Dijkstra). Quirks (duplicates, self-loops, name typos, missing trailing
 *  newline, implausible values) are handled by documented rules and reported as warnings. */
#include <map>
#include <string>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Options of the `platform: hulk:` source. */
struct HulkImportOptions {
  std::string dir;                        ///< folder holding node_feature.csv and edge.txt
  double lan_bandwidth_Bps = 1.25e9;      ///< each server's NIC (10 Gbps default)
  double wan_bandwidth_Bps = 1.25e8;      ///< every city pair's WAN bandwidth (1 Gbps default)
  /** @brief What wan_bandwidth_Bps caps: one pipe per city pair (`pair`, default) or each server's own egress toward
   *  each other city (`host`); see sim/topology/route_model.hpp. */
  WanCapacity wan_capacity = WanCapacity::pair;
  double lan_latency_s = 50e-6;           ///< NIC latency inside a city
  LinkSpec intra_host{150e9, 2e-6};       ///< GPU<->GPU inside a server
  /** @brief compute capability ("8.6") -> GPU model name; overrides the default mapping. */
  std::map<std::string, std::string> gpu_map;
};

/** @brief Imports the data set. @throws InputError naming the data file and line on malformed data. */
PlatformSpec import_hulk(const HulkImportOptions& options);

}  // namespace hulk
