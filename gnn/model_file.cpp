#include "gnn/model_file.hpp"

#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "gnn/format_version.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/errors.hpp"

namespace hulk::gnn {

namespace {

std::vector<std::int64_t> config_vector(const ModelConfig& c) {
  return {c.hidden, c.layers, c.p_max, c.nearest_neighbours, kNodeFeatures, kEdgeFeatures, kJobFeatures, kStageFeatures};
}

/** FNV-1a (64 bits) of the hyper-parameter record and of every parameter's and buffer's name, shape and float
 *  bytes, in the module's order. LibTorch reads its zip records without checking their CRC-32, so a damaged weight
 *  byte, or a hyper-parameter still plausible (nearest_neighbours: the graph the model reads), would load as a
 *  silently different model: the digest, written beside the weights, is what notices. */
std::int64_t weights_digest(torch::nn::Module& model, const std::vector<std::int64_t>& config) {
  std::uint64_t h = 14695981039346656037ULL;
  const auto mix = [&h](const void* data, std::size_t bytes) {
    const auto* b = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < bytes; ++i) h = (h ^ b[i]) * 1099511628211ULL;
  };
  const auto mix_tensor = [&mix](const std::string& name, const torch::Tensor& value) {
    mix(name.data(), name.size());
    for (const std::int64_t d : value.sizes()) mix(&d, sizeof d);
    const torch::Tensor t = value.detach().to(torch::kCPU).contiguous();
    mix(t.data_ptr(), static_cast<std::size_t>(t.numel()) * t.element_size());
  };
  for (const std::int64_t v : config) mix(&v, sizeof v);
  for (const auto& item : model.named_parameters()) mix_tensor(item.key(), item.value());
  for (const auto& item : model.named_buffers()) mix_tensor(item.key(), item.value());
  std::int64_t out = 0;
  std::memcpy(&out, &h, sizeof out);
  return out;
}

std::vector<std::int64_t> move_config_vector(const MoveModelConfig& c) {
  return {c.hidden, c.layers, c.nearest_neighbours, c.pair_features, kNodeFeatures, kEdgeFeatures, kJobFeatures};
}

/** The move scorer's records (format 4); none in a model without one. */
void move_scorer_to_archive(MoveScorer& moves, torch::serialize::OutputArchive& archive) {
  archive.write("move_config", torch::tensor(move_config_vector(moves->config()), torch::kInt64));
  torch::serialize::OutputArchive weights;
  moves->save(weights);
  archive.write("move_weights", weights);
  const std::int64_t digest = weights_digest(*moves, move_config_vector(moves->config()));
  archive.write("move_digest", torch::tensor(digest, torch::kInt64));
  const std::vector<double> bounds{moves->stop_bound(MoveScorerImpl::kStopBoundGpus),
                                   moves->stop_bound(MoveScorerImpl::kStopBoundGpus + 1)};
  archive.write("move_stop_bounds", torch::tensor(bounds, torch::kDouble));
}

/** The move scorer of an archive; an empty holder when the file has none (format 3, or `hulk gnn train`'s output). */
MoveScorer move_scorer_from_archive(torch::serialize::InputArchive& archive, const std::string& path) {
  torch::Tensor config;
  if (!archive.try_read("move_config", config)) return MoveScorer{nullptr};
  if (config.numel() != 7) throw InputError(path, 0, "", "corrupt model file (bad move-scorer hyper-parameters)");
  const auto c = config.to(torch::kInt64).contiguous();
  const std::int64_t* p = c.data_ptr<std::int64_t>();
  if (!valid_pair_features(static_cast<int>(p[3])) || p[4] != kNodeFeatures || p[5] != kEdgeFeatures || p[6] != kJobFeatures)
    throw InputError(path, 0, "", "the move scorer was trained with other feature sizes; retrain with this hulk");
  if (p[0] < 1 || p[0] > 4096 || p[1] < 0 || p[1] > 64 || p[2] < 0)
    throw InputError(path, 0, "", "corrupt model file (implausible move-scorer hyper-parameters)");
  MoveModelConfig mc;
  mc.hidden = static_cast<int>(p[0]);
  mc.layers = static_cast<int>(p[1]);
  mc.nearest_neighbours = static_cast<int>(p[2]);
  mc.pair_features = static_cast<int>(p[3]);
  MoveScorer moves(mc);
  torch::serialize::InputArchive weights;
  try {
    if (!archive.try_read("move_weights", weights))
      throw InputError(path, 0, "", "corrupt model file (no move weights)");
    moves->load(weights);
  } catch (const c10::Error&) {
    throw InputError(path, 0, "", "corrupt model file (move weights do not match their hyper-parameters)");
  }
  torch::Tensor digest;
  if (!archive.try_read("move_digest", digest) || digest.numel() != 1 || digest.scalar_type() != torch::kInt64 ||
      digest.item<std::int64_t>() != weights_digest(*moves, move_config_vector(mc)))
    throw InputError(path, 0, "", "corrupt model file (the move weights do not match their digest)");
  for (const auto& item : moves->named_parameters())
    if (!torch::isfinite(item.value()).all().item<bool>())
      throw InputError(path, 0, "", "corrupt model file (move weight " + item.key() + " is NaN or infinite)");
  torch::Tensor bounds;  // absent in a file written before the walk's bounds were fitted: the neutral 0
  if (archive.try_read("move_stop_bounds", bounds)) {
    if (bounds.numel() != 2 || bounds.scalar_type() != torch::kDouble)
      throw InputError(path, 0, "move_stop_bounds", "corrupt model file (expected two doubles)");
    try {
      moves->set_stop_bounds(bounds[0].item<double>(), bounds[1].item<double>());
    } catch (const std::invalid_argument&) {
      throw InputError(path, 0, "move_stop_bounds", "corrupt model file (expected finite values in [-0.5, 0.5])");
    }
  }
  moves->eval();
  return moves;
}

/** The archive of a model file. @throws InputError if missing or unreadable. */
torch::serialize::InputArchive open_model_archive(const std::string& path) {
  if (!std::filesystem::exists(path))
    throw InputError(path, 0, "", "model file not found (train one with `hulk gnn train`, or pass --model PATH)");
  if (!std::filesystem::is_regular_file(path))
    throw InputError(path, 0, "",
                     std::string(std::filesystem::is_directory(path) ? "is a folder" : "is not a regular file") +
                         ", not a model file (expected a file written by `hulk gnn train`)");
  torch::serialize::InputArchive archive;
  try {
    archive.load_from(path);
  } catch (const c10::Error& e) {
    throw InputError(path, 0, "", "corrupt or not a hulk GNN model file (cannot read the archive)");
  } catch (const std::exception& e) {
    throw InputError(path, 0, "", std::string("corrupt or not a hulk GNN model file (") + e.what() + ")");
  }
  return archive;
}

}  // namespace

void model_to_archive(PlacementGnn& model, torch::serialize::OutputArchive& archive) {
  archive.write("hulk_model_format", torch::tensor(static_cast<std::int64_t>(kModelFormatVersion), torch::kInt64));
  archive.write("config", torch::tensor(config_vector(model->config()), torch::kInt64));
  torch::serialize::OutputArchive weights;
  model->save(weights);
  archive.write("weights", weights);
  archive.write("weights_digest", torch::tensor(weights_digest(*model, config_vector(model->config())), torch::kInt64));
}

PlacementGnn model_from_archive(torch::serialize::InputArchive& archive, const std::string& path) {
  torch::Tensor version, config;
  if (!archive.try_read("hulk_model_format", version) || version.numel() != 1)
    throw InputError(path, 0, "", "not a hulk GNN model file (no format version)");
  const std::int64_t v = version.item<std::int64_t>();
  if (v != kModelFormatVersion && v != kOldestModelFormatVersion)
    throw InputError(path, 0, "", "model format version " + std::to_string(v) + " is not supported (expected " +
                                      std::to_string(kModelFormatVersion) + "); retrain with `hulk gnn train`");
  if (!archive.try_read("config", config) || config.numel() != 8)
    throw InputError(path, 0, "", "corrupt model file (bad hyper-parameter record)");
  const auto c = config.to(torch::kInt64).contiguous();
  const std::int64_t* p = c.data_ptr<std::int64_t>();
  if (p[4] != kNodeFeatures || p[5] != kEdgeFeatures || p[6] != kJobFeatures || p[7] != kStageFeatures)
    throw InputError(path, 0, "", "model was trained with other feature sizes; retrain with this hulk");
  if (p[0] < 1 || p[0] > 4096 || p[1] < 0 || p[1] > 64 || p[2] < 1 || p[2] > 1024 || p[3] < 0)
    throw InputError(path, 0, "", "corrupt model file (implausible hyper-parameters)");
  ModelConfig mc;
  mc.hidden = static_cast<int>(p[0]);
  mc.layers = static_cast<int>(p[1]);
  mc.p_max = static_cast<int>(p[2]);
  mc.nearest_neighbours = static_cast<int>(p[3]);
  PlacementGnn model(mc);
  torch::serialize::InputArchive weights;
  try {
    if (!archive.try_read("weights", weights)) throw InputError(path, 0, "", "corrupt model file (no weights)");
    model->load(weights);
  } catch (const c10::Error& e) {
    throw InputError(path, 0, "", "corrupt model file (weights do not match the hyper-parameters)");
  }
  torch::Tensor digest;
  if (!archive.try_read("weights_digest", digest) || digest.numel() != 1 || digest.scalar_type() != torch::kInt64)
    throw InputError(path, 0, "", "corrupt model file (no weights digest)");
  if (digest.item<std::int64_t>() != weights_digest(*model, config_vector(model->config())))
    throw InputError(path, 0, "",
                     "corrupt model file (its weights do not match their digest: damaged after `hulk gnn train` wrote it)");
  // A NaN or infinite weight turns every score into NaN, and the decoder would rank hosts by garbage.
  for (const auto& item : model->named_parameters())
    if (!torch::isfinite(item.value()).all().item<bool>())
      throw InputError(path, 0, "", "corrupt model file (weight " + item.key() + " is NaN or infinite)");
  model->eval();
  return model;
}

void save_model(PlacementGnn& model, const std::string& path, MoveScorer moves) {
  torch::serialize::OutputArchive archive;
  model_to_archive(model, archive);
  if (moves) move_scorer_to_archive(moves, archive);
  try {
    // Through a stream, not save_to(path): a path names the zip's root folder after the file, so the same weights
    // saved under two names would differ in bytes; the stream form always uses the root "archive".
    write_file_atomic(path, [&archive](std::ostream& file) { archive.save_to(file); });
  } catch (const c10::Error& e) {
    throw InputError(path, 0, "", "cannot write model file");
  }
}

PlacementGnn load_model(const std::string& path) {
  torch::serialize::InputArchive archive = open_model_archive(path);
  try {
    return model_from_archive(archive, path);
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw InputError(path, 0, "", std::string("corrupt model file (") + e.what() + ")");
  }
}

MoveScorer load_move_scorer(const std::string& path) {
  torch::serialize::InputArchive archive = open_model_archive(path);
  try {
    model_from_archive(archive, path);  // the version, the placement GNN's records and their digest
    return move_scorer_from_archive(archive, path);
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw InputError(path, 0, "", std::string("corrupt model file (") + e.what() + ")");
  }
}

}  // namespace hulk::gnn
