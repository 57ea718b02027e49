#pragma once
/** @file catalog.hpp
 *  @brief GPU catalog (platforms/gpus.yaml) and model presets (platforms/models.yaml). */
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Directory holding gpus.yaml and models.yaml: platforms/ under the data root (sim/core/data_dir.hpp). */
std::string platforms_dir();

/** @brief Entries by name, in file order: what the GPU, transport and model catalogs share (T has a `name`). */
template <class T>
class NamedCatalog {
 public:
  /** @brief Looks up an entry by exact name; nullptr if absent. */
  const T* find(const std::string& name) const {
    for (const T& e : entries_)
      if (e.name == name) return &e;
    return nullptr;
  }
  /** @brief Names, for did-you-mean suggestions and error messages. */
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const T& e : entries_) out.push_back(e.name);
    return out;
  }
  /** @brief Every entry, in file order. */
  const std::vector<T>& all() const { return entries_; }

 protected:
  /** @brief Appends an entry read at `key` of a catalog file (r: its YamlReader, e: its node); a name listed
   *  before is an InputError ("duplicate <what> '<name>'"). */
  template <class Reader, class Node>
  void add_unique(const Reader& r, const Node& e, const std::string& key, T entry, const std::string& what) {
    if (find(entry.name) != nullptr) r.fail(e["name"], key + ".name", "duplicate " + what + " '" + entry.name + "'");
    entries_.push_back(std::move(entry));
  }

  std::vector<T> entries_;
};

/** @brief GPU models by name, in file order. */
class GpuCatalog : public NamedCatalog<GpuSpec> {
 public:
  /** @brief Loads a catalog file; throws InputError on a malformed one. */
  static GpuCatalog load(const std::string& path);
  /** @brief The catalog shipped in platforms/gpus.yaml (loaded once, cached). */
  static const GpuCatalog& builtin();
};

/** @brief One transport of platforms/transports.yaml: the fraction of a link's bandwidth the collective library
 *  achieves over it. */
struct TransportSpec {
  std::string name;
  double achieved = 1;  ///< in (0, 1]
  std::string source;
};

/** @brief Transports by name (platforms/transports.yaml). */
class TransportCatalog : public NamedCatalog<TransportSpec> {
 public:
  /** @brief Loads a catalog file; throws InputError on a malformed one. */
  static TransportCatalog load(const std::string& path);
  /** @brief The catalog shipped in platforms/transports.yaml (loaded once, cached). */
  static const TransportCatalog& builtin();
};

/** @brief Model presets by name (platforms/models.yaml). */
class ModelCatalog : public NamedCatalog<ModelSpec> {
 public:
  /** @brief Loads a catalog file; throws InputError on a malformed one. */
  static ModelCatalog load(const std::string& path);
  /** @brief The catalog shipped in platforms/models.yaml (loaded once, cached). */
  static const ModelCatalog& builtin();
};

}  // namespace hulk
