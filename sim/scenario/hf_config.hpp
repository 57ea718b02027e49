#pragma once
/** @file hf_config.hpp
 *  @brief A model's shape from a Hugging Face `config.json` (a scenario's `model: {hf_config: PATH}`): layers,
 *  width, attention and key/value heads, MLP width and kind, vocabulary, tied embeddings, positions. Families:
 *  llama, mistral, qwen2 (gated MLP, rotary positions), gpt_neox (two-matrix MLP, rotary), gpt2 (two-matrix MLP,
 *  learned positions; GPT-2's own key names). */
#include <string>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief What a config.json gives. */
struct HfModel {
  ModelSpec model;        ///< seq_len left 0: the scenario's seq_len or max_positions sets it
  int max_positions = 0;  ///< max_position_embeddings (n_positions for gpt2); 0 when absent
  std::string family;     ///< the model_type in force (from model_type, else architectures[0])
};

/** @brief Reads and checks a config.json.
 *  @param path the file (as it is to be named in messages).
 *  @param origin where it was asked for, appended to every message ("job.model.hf_config of FILE:LINE").
 *  @throws InputError(path, line of the key, key, "what is wrong (expected ...) (origin)") on a JSON syntax error,
 *  a missing or mistyped key, an unknown family, or values that make no model (hidden not divisible by heads). */
HfModel read_hf_config(const std::string& path, const std::string& origin);

}  // namespace hulk
