#pragma once
/** @file catalog.hpp
 *  @brief GPU catalog (platforms/gpus.yaml) and model presets (platforms/models.yaml). */
#include <map>
#include <string>
#include <vector>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Directory holding gpus.yaml and models.yaml: platforms/ under the data root (sim/core/data_dir.hpp). */
std::string platforms_dir();

/** @brief GPU models by name, in file order. */
class GpuCatalog {
 public:
  /** @brief Loads a catalog file; throws InputError on a malformed one. */
  static GpuCatalog load(const std::string& path);
  /** @brief The catalog shipped in platforms/gpus.yaml (loaded once, cached). */
  static const GpuCatalog& builtin();
  /** @brief Looks up a GPU by exact name; nullptr if absent. */
  const GpuSpec* find(const std::string& name) const;
  const std::vector<GpuSpec>& all() const { return gpus_; }
  /** @brief Names, for did-you-mean suggestions and error messages. */
  std::vector<std::string> names() const;

 private:
  std::vector<GpuSpec> gpus_;
};

/** @brief One transport of platforms/transports.yaml: the fraction of a link's bandwidth the collective library
 *  achieves over it. */
struct TransportSpec {
  std::string name;
  double achieved = 1;  ///< in (0, 1]
  std::string source;
};

/** @brief Transports by name (platforms/transports.yaml). */
class TransportCatalog {
 public:
  /** @brief Loads a catalog file; throws InputError on a malformed one. */
  static TransportCatalog load(const std::string& path);
  /** @brief The catalog shipped in platforms/transports.yaml (loaded once, cached). */
  static const TransportCatalog& builtin();
  /** @brief Looks up a transport by exact name; nullptr if absent. */
  const TransportSpec* find(const std::string& name) const;
  /** @brief Names, for did-you-mean suggestions. */
  std::vector<std::string> names() const;

 private:
  std::vector<TransportSpec> transports_;
};

/** @brief Model presets by name. */
class ModelCatalog {
 public:
  static ModelCatalog load(const std::string& path);
  static const ModelCatalog& builtin();
  const ModelSpec* find(const std::string& name) const;
  std::vector<std::string> names() const;
  const std::vector<ModelSpec>& all() const { return models_; }

 private:
  std::vector<ModelSpec> models_;
};

}  // namespace hulk
