#pragma once
/** @file model_file.hpp
 *  @brief The model file: a LibTorch archive holding the format version (kModelFormatVersion), the
 *  hyper-parameters and feature sizes, the weights and a digest of both, and (format 4, optional) the move scorer's
 *  hyper-parameters, weights and digest (gnn/move_model.hpp) (LibTorch does not check its records'
 *  CRC-32: a damaged weight byte or hyper-parameter is noticed by the digest). A missing, corrupt or other-version file gives an
 *  InputError naming the file. */
#include <string>

#include <torch/torch.h>

#include "gnn/model.hpp"
#include "gnn/move_model.hpp"

namespace hulk::gnn {

/** @brief Writes version + config + weights into an archive (also used inside training checkpoints). */
void model_to_archive(PlacementGnn& model, torch::serialize::OutputArchive& archive);
/** @brief Reads what model_to_archive wrote. @param path for error messages. @throws InputError. */
PlacementGnn model_from_archive(torch::serialize::InputArchive& archive, const std::string& path);

/** @brief Saves the model, and the move scorer if given, to path (temporary file + rename: never a half-written
 *  model). */
void save_model(PlacementGnn& model, const std::string& path, MoveScorer moves = MoveScorer{nullptr});
/** @brief Loads a model file (eval mode). @throws InputError if missing, corrupt, or of another format version. */
PlacementGnn load_model(const std::string& path);
/** @brief The move scorer of a model file (eval mode), or an empty holder if the file has none (format 3, or a
 *  model `hulk train` wrote). @throws InputError as load_model, or for damaged move-scorer records. */
MoveScorer load_move_scorer(const std::string& path);

}  // namespace hulk::gnn
