// Models from Hugging Face config.json (sim/scenario/hf_config.cpp) and the cost model's grouped-query attention,
// gated MLP and untied embeddings (sim/workload/cost_model.cpp): parameter totals against the published counts, FLOPs
// against 6·N·tokens plus attention, and every kind of bad config as one error naming the file, line and key.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "temp_file.hpp"
#include "sim/core/errors.hpp"
#include "sim/scenario/hf_config.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/workload/cost_model.hpp"

using namespace hulk;

namespace {

std::string source(const std::string& rel) { return std::string(HULK_SOURCE_DIR) + "/" + rel; }
std::string test_data(const std::string& rel) { return std::string(HULK_TEST_DATA) + "/" + rel; }

ModelSpec read(const std::string& path) { return read_hf_config(path, "test").model; }

std::string write_config(const std::string& name, const std::string& text) {
  return hulk_test::write_temp_file("hf_config_tests/" + name, "config.json", text);
}

// A Llama-2-70B config (80 layers, width 8192, 64 heads sharing 8 key/value heads, SwiGLU of 28672, untied).
const std::string kLlama70b =
    "{\n"
    "  \"architectures\": [\"LlamaForCausalLM\"],\n"
    "  \"hidden_size\": 8192,\n"
    "  \"intermediate_size\": 28672,\n"
    "  \"max_position_embeddings\": 4096,\n"
    "  \"model_type\": \"llama\",\n"
    "  \"num_attention_heads\": 64,\n"
    "  \"num_hidden_layers\": 80,\n"
    "  \"num_key_value_heads\": 8,\n"
    "  \"tie_word_embeddings\": false,\n"
    "  \"vocab_size\": 32000\n"
    "}\n";

double relative(double a, double b) { return (a - b) / b; }

}  // namespace

// Published totals count biases and norms too (O(hidden) per layer), which the cost model leaves out: the matrices'
// count is checked exactly, and against the published total to 1e-4.
TEST(HfConfig, Llama2_7bHasItsPublishedParameterCount) {
  const ModelSpec m = read(source("scenarios/models/llama-2-7b/config.json"));
  EXPECT_EQ(m.layers, 32);
  EXPECT_EQ(m.hidden, 4096);
  EXPECT_EQ(m.heads, 32);
  EXPECT_EQ(m.kv_heads, 32);
  EXPECT_EQ(m.ffn_hidden, 11008);
  EXPECT_EQ(m.vocab, 32000);
  EXPECT_TRUE(m.gated_mlp);
  EXPECT_FALSE(m.tied_embeddings);
  EXPECT_EQ(m.position_rows, -1);  // rotary: no table
  EXPECT_EQ(m.name, "llama-2-7b");
  // 32 x (4 x 4096^2 + 3 x 4096 x 11008) + 2 x 32000 x 4096.
  EXPECT_DOUBLE_EQ(model_parameters(m), 6738149376.0);
  EXPECT_NEAR(relative(model_parameters(m), 6738415616.0), 0.0, 1e-4);  // transformers' count: 6.74e9
}

TEST(HfConfig, Gpt2XlHasItsPublishedParameterCount) {
  const ModelSpec m = read(test_data("hf/gpt2-xl/config.json"));
  EXPECT_EQ(m.layers, 48);
  EXPECT_EQ(m.hidden, 1600);
  EXPECT_EQ(m.heads, 25);
  EXPECT_EQ(m.ffn_hidden, 0);  // n_inner null: 4 x n_embd
  EXPECT_FALSE(m.gated_mlp);
  EXPECT_TRUE(m.tied_embeddings);
  EXPECT_EQ(m.position_rows, 1024);
  // 48 x 12 x 1600^2 + 50257 x 1600 + 1024 x 1600.
  EXPECT_DOUBLE_EQ(model_parameters(m), 1556609600.0);
  EXPECT_NEAR(relative(model_parameters(m), 1557611200.0), 0.0, 1e-3);  // transformers' count: 1.56e9
}

TEST(HfConfig, GroupedQueryAttentionHasLlama2_70bsCount) {
  const ModelSpec m = read(write_config("llama70b", kLlama70b));
  EXPECT_EQ(m.kv_heads, 8);
  // Per layer 2 x 8192^2 (Q, O) + 2 x 8192 x 1024 (K, V) + 3 x 8192 x 28672.
  EXPECT_DOUBLE_EQ(layer_matrix_params(m), 855638016.0);
  EXPECT_DOUBLE_EQ(model_parameters(m), 68975329280.0);
  EXPECT_NEAR(relative(model_parameters(m), 68976648192.0), 0.0, 1e-4);  // transformers' count: 69.0e9
}

TEST(HfConfig, TyingTheEmbeddingsDropsOneVocabMatrix) {
  ModelSpec untied = read(source("scenarios/models/llama-2-7b/config.json"));
  ModelSpec tied = untied;
  tied.tied_embeddings = true;
  EXPECT_DOUBLE_EQ(model_parameters(untied) - model_parameters(tied), 32000.0 * 4096);
  // One stage holds every parameter once; with pp > 1 a tied model's last stage holds the output copy as well.
  JobSpec job;
  job.model = untied;
  job.model.seq_len = 128;
  job.global_batch = 1;
  EXPECT_DOUBLE_EQ(compute_job_cost(job).stages[0].params, model_parameters(untied));
  job.model = tied;
  job.model.seq_len = 128;
  EXPECT_DOUBLE_EQ(compute_job_cost(job).stages[0].params, model_parameters(tied));
  job.par.pp = 2;
  job.global_batch = 2;
  const JobCost two = compute_job_cost(job);
  EXPECT_DOUBLE_EQ(two.stages[0].params + two.stages[1].params, model_parameters(tied) + 32000.0 * 4096);
}

// Training flop per micro-batch = 3 x forward = 6 x (weights a token meets) x tokens + the attention core
// (3 x 4·b·s²·h per layer). A token meets every layer's matrices and the output layer, not the input embedding.
TEST(HfConfig, FlopsAreSixTimesWeightsTimesTokensPlusAttention) {
  for (const std::string& path : {source("scenarios/models/llama-2-7b/config.json"),
                                  test_data("hf/gpt2-xl/config.json"), write_config("llama70b-flops", kLlama70b)}) {
    JobSpec job;
    job.model = read(path);
    job.model.seq_len = 1024;
    job.micro_batch = 2;
    job.global_batch = 2;
    const ModelSpec& m = job.model;
    const double b = 2, s = 1024, h = m.hidden, tokens = b * s;
    const double weights = layer_matrix_params(m) * m.layers + double(m.vocab) * h;
    const double expected = 6.0 * weights * tokens + 3.0 * m.layers * 4.0 * b * s * s * h;
    EXPECT_NEAR(relative(3.0 * compute_job_cost(job).stages[0].fwd_flops_per_mb(), expected), 0.0, 1e-12) << path;
  }
}

// Korthikanti's 24/t term with K and V at kv/heads of the width and the MLP's stored tensors: Llama-2-70B at t = 8,
// s = 4096, b = 1 keeps per layer s·b·h·(10 + (2 + 4/8 + 2 + 6 x 28672/8192)/8 + 5·a·s/(h·t)) bytes.
TEST(HfConfig, ActivationsFollowTheKvHeadsAndTheGatedMlp) {
  JobSpec job;
  job.model = read(write_config("llama70b-act", kLlama70b));
  job.model.seq_len = 4096;
  job.model.layers = 8;
  job.par.tp = 8;
  const double sbh = 4096.0 * 8192;
  const double per_layer = sbh * (10.0 + (2.0 + 0.5 + 2.0 + 21.0) / 8 + 5.0 * 64 * 4096 / (8192.0 * 8));
  EXPECT_NEAR(relative(compute_job_cost(job).stages[0].activation_bytes_per_mb, 8 * per_layer), 0.0, 1e-12);
}

TEST(HfConfig, ScenarioReadsTheBundledLlamaConfig) {
  const Scenario s = load_scenario(source("scenarios/models/llama-2-7b.yaml"));
  EXPECT_EQ(s.only_job().model.name, "llama-2-7b");
  EXPECT_EQ(s.only_job().model.seq_len, 4096);  // max_position_embeddings
  EXPECT_EQ(s.only_job().model.ffn_hidden, 11008);
  EXPECT_TRUE(s.only_job().model.gated_mlp);
  // The model map's own keys win over the config's; --set can name another config (relative to the scenario).
  const Scenario shorter =
      load_scenario(source("scenarios/models/llama-2-7b.yaml"),
                    {{"job.model.seq_len", "2048"}, {"job.model.name", "llama-short"}});
  EXPECT_EQ(shorter.only_job().model.seq_len, 2048);
  EXPECT_EQ(shorter.only_job().model.name, "llama-short");
  EXPECT_EQ(shorter.only_job().model.layers, 32);
  const std::string gpt2 = test_data("hf/gpt2-xl/config.json");
  const Scenario swapped = load_scenario(source("scenarios/models/llama-2-7b.yaml"),
                                         {{"job.model.hf_config", gpt2}, {"job.parallelism.tp", "1"},
                                          {"job.parallelism.dp", "8"}, {"job.global_batch", "64"}});
  EXPECT_EQ(swapped.only_job().model.layers, 48);
  EXPECT_EQ(swapped.only_job().model.seq_len, 1024);
  // A --set preset replaces the file's config.
  const Scenario preset = load_scenario(source("scenarios/models/llama-2-7b.yaml"),
                                        {{"job.model.preset", "gpt3-xl"}, {"job.parallelism.tp", "2"}});
  EXPECT_EQ(preset.only_job().model.name, "gpt3-xl");
  EXPECT_TRUE(preset.only_job().model.tied_embeddings);
}

namespace {

struct BadConfig {
  const char* name;
  std::string text;
  std::string key;     // the config key named
  int line;            // its line in the config (0: none)
  std::string expect;  // a part of the message
};

}  // namespace

TEST(HfConfig, BadConfigsAreOneErrorNamingFileLineKeyAndOrigin) {
  const std::string llama_head =
      "{\n  \"model_type\": \"llama\",\n  \"num_hidden_layers\": 2,\n  \"hidden_size\": 64,\n";  // lines 1-4
  const std::vector<BadConfig> cases = {
      {"syntax", llama_head + "  \"num_attention_heads\": 4,,\n}\n", "", 5, "syntax error"},
      {"missing", llama_head + "  \"num_attention_heads\": 4\n}\n", "intermediate_size", 0, "missing key"},
      {"type", llama_head + "  \"num_attention_heads\": \"4\"\n}\n", "num_attention_heads", 5, "the string \"4\""},
      {"float", llama_head + "  \"num_attention_heads\": 4.5\n}\n", "num_attention_heads", 5, "expected an integer"},
      {"negative", llama_head + "  \"num_attention_heads\": -4\n}\n", "num_attention_heads", 5, "got -4"},
      {"zero", llama_head + "  \"num_attention_heads\": 0\n}\n", "num_attention_heads", 5, "got 0"},
      {"divisible", llama_head + "  \"num_attention_heads\": 5, \"intermediate_size\": 128, \"vocab_size\": 9\n}\n",
       "num_attention_heads", 5, "does not divide the width 64"},
      {"kv", llama_head + "  \"num_attention_heads\": 4,\n  \"num_key_value_heads\": 3,\n"
                          "  \"intermediate_size\": 128, \"vocab_size\": 9\n}\n",
       "num_key_value_heads", 6, "does not divide num_attention_heads 4"},
      {"family", "{\n  \"model_type\": \"lama\"\n}\n", "model_type", 2, "did you mean 'llama'"},
      {"tie", llama_head + "  \"num_attention_heads\": 4, \"intermediate_size\": 128, \"vocab_size\": 9,\n"
                           "  \"tie_word_embeddings\": 1\n}\n",
       "tie_word_embeddings", 6, "expected true or false"},
      {"duplicate", llama_head + "  \"hidden_size\": 128\n}\n", "hidden_size", 5, "appears twice"},
      {"list", "[1, 2]\n", "", 1, "expected a JSON object"},
  };
  for (const BadConfig& c : cases) {
    const std::string path = write_config(c.name, c.text);
    try {
      read_hf_config(path, "job.model.hf_config of s.yaml:3");
      ADD_FAILURE() << c.name << ": expected an InputError";
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_EQ(e.file(), path) << c.name;
      EXPECT_EQ(e.key(), c.key) << c.name << ": " << what;
      EXPECT_EQ(e.line(), c.line) << c.name << ": " << what;
      EXPECT_NE(what.find(c.expect), std::string::npos) << c.name << ": " << what;
      EXPECT_NE(what.find("(job.model.hf_config of s.yaml:3)"), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }
}

TEST(HfConfig, ScenarioErrorsNameTheScenarioKey) {
  const std::string base = source("scenarios/models/llama-2-7b.yaml");
  // A missing config: the scenario's file and key.
  try {
    load_scenario(base, {{"job.model.hf_config", "no-such/config.json"}});
    ADD_FAILURE() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), base);
    EXPECT_EQ(e.key(), "job.model.hf_config");
    EXPECT_NE(std::string(e.what()).find("no-such/config.json' not found"), std::string::npos) << e.what();
  }
  // A bad config named by --set: the config's file, and the --set that named it.
  const std::string bad = write_config("via-set", "{\n  \"model_type\": \"llama\"\n}\n");
  try {
    load_scenario(base, {{"job.model.hf_config", bad}});
    ADD_FAILURE() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), std::filesystem::path(bad).lexically_normal().string());
    EXPECT_NE(std::string(e.what()).find("--set job.model.hf_config=" + bad), std::string::npos) << e.what();
  }
  // kv heads that tp does not divide (70B's 8 over tp 16).
  const std::string big = write_config("tp16", kLlama70b);
  try {
    load_scenario(base, {{"job.model.hf_config", big}, {"job.parallelism.tp", "16"}, {"job.parallelism.pp", "1"},
                         {"job.parallelism.dp", "2"}, {"job.model.seq_len", "1024"}, {"job.check_memory", "false"}});
    ADD_FAILURE() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "job.parallelism.tp");
    EXPECT_NE(std::string(e.what()).find("kv_heads 8 are not divisible by tp 16"), std::string::npos) << e.what();
  }
}
