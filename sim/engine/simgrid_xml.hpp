#pragma once
/** @file simgrid_xml.hpp
 *  @brief The `platform: simgrid:` source: a SimGrid platform XML file the user already has, plus a mapping
 *  saying which hosts carry how many GPUs of which kind. */
#include <map>
#include <string>
#include <vector>

#include "sim/core/spec.hpp"
#include "sim/core/xml_platform.hpp"

namespace hulk {

/** @brief Loads the XML with SimGrid in a child process and describes it as a PlatformSpec: one host per XML host
 *  that carries GPUs (XML order), region = name of the host's netzone, per-host-pair route latency in
 *  host_pair_latency_s and the route's bottleneck bandwidth in host_pair_bandwidth_Bps; simgrid_xml = file.
 *  @throws InputError (file = the XML) if SimGrid rejects the file or a per_host name is not in it. */
PlatformSpec describe_simgrid_xml(const SimgridXmlOptions& options);

}  // namespace hulk
