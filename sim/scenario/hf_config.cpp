// A Hugging Face config.json -> ModelSpec. Key names and per-family defaults follow the transformers library's
// configuration classes (LlamaConfig, MistralConfig, Qwen2Config, GPTNeoXConfig, GPT2Config).
#include "sim/scenario/hf_config.hpp"

#include <filesystem>
#include <iterator>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/did_you_mean.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/input_file.hpp"
#include "sim/scenario/bounds.hpp"

namespace hulk {
namespace {

using nlohmann::json;

/** A config.json is a few kilobytes; anything this large is not one (and is not read into memory whole). */
constexpr std::uintmax_t kMaxConfigBytes = 16u << 20;

/** One architecture family: how its config names the shape and what its layers are. */
struct Family {
  const char* type;          ///< model_type
  const char* architecture;  ///< architectures[0]
  bool gated;                ///< SwiGLU MLP (three matrices)
  bool rotary;               ///< rotary positions (no position table)
  bool tied_default;         ///< tie_word_embeddings when the key is absent (the configuration class's default)
  bool gpt2_names;           ///< n_layer, n_embd, n_head, n_inner, n_positions
};

constexpr Family kFamilies[] = {
    {"llama", "LlamaForCausalLM", true, true, false, false},
    {"mistral", "MistralForCausalLM", true, true, false, false},
    {"qwen2", "Qwen2ForCausalLM", true, true, false, false},
    {"gpt_neox", "GPTNeoXForCausalLM", false, true, false, false},
    {"gpt2", "GPT2LMHeadModel", false, false, true, true},
};

std::vector<std::string> family_types() {
  std::vector<std::string> out;
  for (const Family& f : kFamilies) out.push_back(f.type);
  return out;
}

/** The line of each top-level key of a JSON object's text (nlohmann keeps no positions), and the first top-level key
 *  written twice (nlohmann keeps the last value without a word). Run on text that parsed. */
struct KeyLines {
  std::map<std::string, int> line;
  std::string duplicate;
};

KeyLines top_level_keys(const std::string& text) {
  KeyLines out;
  int depth = 0, line = 1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') ++line;
    if (c == '{' || c == '[') ++depth;
    if (c == '}' || c == ']') --depth;
    if (c != '"') continue;
    const int start_line = line;
    std::string raw;
    for (++i; i < text.size() && text[i] != '"'; ++i) {
      if (text[i] == '\\' && i + 1 < text.size()) raw += text[i++];
      raw += text[i];
    }
    std::size_t next = i + 1;
    while (next < text.size() && (text[next] == ' ' || text[next] == '\t' || text[next] == '\r' || text[next] == '\n'))
      ++next;
    if (depth != 1 || next >= text.size() || text[next] != ':') continue;  // a value, or a nested key
    const auto [it, fresh] = out.line.emplace(raw, start_line);
    if (!fresh && out.duplicate.empty()) {
      out.duplicate = raw;
      it->second = start_line;  // the second one is the error
    }
  }
  return out;
}

/** A value as a message shows it. */
std::string describe(const json& v) {
  if (v.is_string()) return "the string \"" + v.get<std::string>() + "\"";
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_null()) return "null";
  if (v.is_array()) return "a list";
  if (v.is_object()) return "an object";
  return "the number " + v.dump();
}

/** Typed access to the top-level keys, every problem naming the file, the key's line, the key and the origin. */
class ConfigReader {
 public:
  ConfigReader(std::string path, std::string origin, json doc, KeyLines lines)
      : path_(std::move(path)), origin_(std::move(origin)), doc_(std::move(doc)), lines_(std::move(lines)) {}

  [[noreturn]] void fail(const std::string& key, const std::string& message) const {
    const auto it = lines_.line.find(key);
    throw InputError(path_, it == lines_.line.end() ? 0 : it->second, key, message + " (" + origin_ + ")");
  }
  /** The value of key; null when absent (JSON null counts as absent: GPT-2's n_inner is null for 4 x n_embd). */
  const json& at(const std::string& key) const {
    static const json null_value;
    const auto it = doc_.find(key);
    return it == doc_.end() ? null_value : *it;
  }
  bool has(const std::string& key) const { return !at(key).is_null(); }
  /** An integer in [min, max]; `what` says what the key is for in the missing-key message. */
  int integer(const std::string& key, long long min, long long max, const std::string& what) const {
    const json& v = at(key);
    if (v.is_null()) fail(key, "missing key '" + key + "' (expected " + what + ")");
    const std::string range = "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
    if (!v.is_number_integer()) fail(key, "expected " + range + ", got " + describe(v));
    // nlohmann reads a non-negative integer as unsigned (up to 2^64 - 1): compared as such before any narrowing.
    const bool in_range = v.is_number_unsigned()
                              ? v.get<unsigned long long>() <= static_cast<unsigned long long>(max) &&
                                    static_cast<long long>(v.get<unsigned long long>()) >= min
                              : v.get<long long>() >= min && v.get<long long>() <= max;
    if (!in_range) fail(key, "expected " + range + " (" + what + "), got " + v.dump());
    return static_cast<int>(v.get<long long>());
  }
  bool boolean(const std::string& key, bool absent) const {
    const json& v = at(key);
    if (v.is_null()) return absent;
    if (!v.is_boolean()) fail(key, "expected true or false, got " + describe(v));
    return v.get<bool>();
  }
  std::string string(const std::string& key) const {
    const json& v = at(key);
    if (!v.is_string()) fail(key, "expected a string, got " + describe(v));
    return v.get<std::string>();
  }

 private:
  std::string path_, origin_;
  json doc_;
  KeyLines lines_;
};

/** The family from model_type, else from architectures[0]. */
const Family& family_of(const ConfigReader& r) {
  if (r.has("model_type")) {
    const std::string type = r.string("model_type");
    for (const Family& f : kFamilies)
      if (type == f.type) return f;
    r.fail("model_type", "unsupported model type '" + type + "'" + suggestion_suffix(type, family_types()) +
                             " (expected one of llama, mistral, qwen2, gpt_neox, gpt2)");
  }
  if (!r.has("architectures"))
    r.fail("model_type", "missing key 'model_type' (expected a model type such as llama or gpt2, or architectures)");
  const json& list = r.at("architectures");
  if (!list.is_array() || list.empty() || !list[0].is_string())
    r.fail("architectures", "expected a list of class names such as [\"LlamaForCausalLM\"], got " + describe(list));
  const std::string arch = list[0].get<std::string>();
  for (const Family& f : kFamilies)
    if (arch == f.architecture) return f;
  r.fail("architectures", "unsupported architecture '" + arch +
                              "' (expected LlamaForCausalLM, MistralForCausalLM, Qwen2ForCausalLM, "
                              "GPTNeoXForCausalLM or GPT2LMHeadModel, or a model_type)");
}

/** The text of the file and its parsed top-level object. */
json parse_config(const std::string& path, const std::string& origin, std::string& text) {
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec && size > kMaxConfigBytes)
    throw InputError(path, 0, "", "is " + std::to_string(size) + " bytes (expected a config.json of at most 16 MiB) (" +
                                      origin + ")");
  std::ifstream in = open_input_file(path, "model config", "a Hugging Face config.json (" + origin + ")");
  text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  try {
    json doc = json::parse(text);
    if (!doc.is_object())
      throw InputError(path, 1, "", "expected a JSON object of model settings, got " + describe(doc) + " (" + origin +
                                        ")");
    return doc;
  } catch (const json::parse_error& e) {
    int line = 1;
    for (std::size_t i = 0; i + 1 < e.byte && i < text.size(); ++i) line += text[i] == '\n';
    std::string what = e.what();
    const std::size_t syntax = what.find("syntax error");
    if (syntax != std::string::npos) what = what.substr(syntax);
    throw InputError(path, line, "", "JSON " + what + " (expected a Hugging Face config.json) (" + origin + ")");
  }
}

/** The shape's checks that the ranges alone do not make: heads split hidden, kv heads split heads, head_dim. */
void check_shape(const ConfigReader& r, const ModelSpec& m, const char* heads_key, const char* kv_key) {
  if (m.hidden % m.heads != 0)
    r.fail(heads_key, std::string(heads_key) + " " + std::to_string(m.heads) + " does not divide the width " +
                          std::to_string(m.hidden) + " (expected hidden size = heads x head size)");
  if (m.kv_heads > m.heads || m.heads % m.kv_heads != 0)
    r.fail(kv_key, std::string(kv_key) + " " + std::to_string(m.kv_heads) + " does not divide " + heads_key + " " +
                       std::to_string(m.heads) + " (expected each key/value head shared by a whole group of heads)");
  // A head size other than hidden / heads (Gemma) changes every attention projection: not modelled.
  if (r.has("head_dim") && r.integer("head_dim", 1, bounds::kMaxHidden, "the head size") != m.hidden / m.heads)
    r.fail("head_dim", "head_dim " + r.at("head_dim").dump() + " differs from the width / heads = " +
                           std::to_string(m.hidden / m.heads) + " (expected hidden size = heads x head_dim)");
}

}  // namespace

HfModel read_hf_config(const std::string& path, const std::string& origin) {
  std::string text;
  json doc = parse_config(path, origin, text);
  KeyLines lines = top_level_keys(text);
  const std::string duplicate = lines.duplicate;
  const ConfigReader r(path, origin, std::move(doc), std::move(lines));
  if (!duplicate.empty())
    r.fail(duplicate, "key '" + duplicate + "' appears twice (expected each key once)");
  const Family& f = family_of(r);
  const bool g2 = f.gpt2_names;
  const char* heads_key = g2 ? "n_head" : "num_attention_heads";
  const char* kv_key = g2 ? "n_head" : "num_key_value_heads";
  const char* ffn_key = g2 ? "n_inner" : "intermediate_size";
  const char* positions_key = g2 ? "n_positions" : "max_position_embeddings";
  HfModel out;
  out.family = f.type;
  ModelSpec& m = out.model;
  m.layers = r.integer(g2 ? "n_layer" : "num_hidden_layers", 1, bounds::kMaxLayers, "the number of layers");
  m.hidden = r.integer(g2 ? "n_embd" : "hidden_size", 1, bounds::kMaxHidden, "the model width");
  m.heads = r.integer(heads_key, 1, bounds::kMaxHeads, "the attention heads");
  m.kv_heads = r.has(kv_key) ? r.integer(kv_key, 1, bounds::kMaxHeads, "the key/value heads") : m.heads;
  // GPT-2's n_inner is null for 4 x n_embd; the other families always give their MLP width.
  if (!g2 || r.has(ffn_key))
    m.ffn_hidden = r.integer(ffn_key, 1, 8 * bounds::kMaxHidden, "the MLP width");
  m.vocab = r.integer("vocab_size", 1, bounds::kMaxVocab, "the vocabulary size");
  m.gated_mlp = f.gated;
  m.tied_embeddings = r.boolean("tie_word_embeddings", f.tied_default);
  // A learned table has n_positions rows whatever the sequence trained on; rotary positions have no parameters.
  if (g2 || r.has(positions_key))
    out.max_positions = r.integer(positions_key, 1, bounds::kMaxSeqLen, "the longest sequence (position table)");
  m.position_rows = f.rotary ? -1 : out.max_positions;
  check_shape(r, m, heads_key, kv_key);
  const std::string folder = std::filesystem::path(path).parent_path().filename().string();
  // The folder names the model (models/llama-2-7b/config.json); a name is printed in CSV rows and one-line messages.
  const bool plain =
      !folder.empty() && folder != "." && folder != ".." && first_control_char(folder) == std::string::npos;
  m.name = plain ? folder : std::string(f.type);
  m.hf_config = path;
  return out;
}

}  // namespace hulk
