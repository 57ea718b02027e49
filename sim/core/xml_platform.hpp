#pragma once
/** @file xml_platform.hpp
 *  @brief The request behind the `platform: simgrid:` source (an XML file plus which hosts carry which GPUs), and
 *  the describer type that turns it into a PlatformSpec. Describing needs SimGrid, which only sim/engine may use:
 *  the scenario loader receives the describer from its caller (sim/engine/simgrid_xml.hpp's describe_simgrid_xml)
 *  instead of depending on the engine. */
#include <functional>
#include <map>
#include <string>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief GPUs of one XML host (or of every host matched by a default rule). */
struct XmlHostGpus {
  int count = 1;
  GpuSpec gpu;
};

/** @brief Options of the `platform: simgrid:` source. */
struct SimgridXmlOptions {
  std::string file;                             ///< absolute path of the XML file
  XmlHostGpus default_gpus;                     ///< for hosts not listed in per_host
  bool has_default = false;                     ///< false: only hosts listed in per_host carry GPUs
  std::map<std::string, XmlHostGpus> per_host;  ///< host name -> GPUs
  LinkSpec intra_host{150e9, 2e-6};             ///< GPU<->GPU inside a host
  /** @brief Most hosts the file may have (the scenario's bound): the describer refuses more before it lists every
   *  pair's route (0 = no limit). */
  long long max_hosts = 0;
};

/** @brief Describes an XML platform as a PlatformSpec. @throws InputError naming the XML file. */
using XmlPlatformDescriber = std::function<PlatformSpec(const SimgridXmlOptions&)>;

}  // namespace hulk
