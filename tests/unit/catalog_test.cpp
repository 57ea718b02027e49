// GPU catalog and model presets: the shipped files carry the datasheet values and a source for each entry.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "sim/scenario/catalog.hpp"
#include "sim/core/errors.hpp"

using namespace hulk;

namespace {
std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}
}  // namespace

TEST(GpuCatalog, HasTheRequiredGpusWithSources) {
  const GpuCatalog& cat = GpuCatalog::builtin();
  for (const char* name : {"P100", "P40", "V100-16GB", "V100-32GB", "T4", "RTX3090", "A10", "A40", "A100-40GB",
                           "A100-80GB", "H100-80GB"}) {
    const GpuSpec* g = cat.find(name);
    ASSERT_NE(g, nullptr) << name;
    EXPECT_GT(g->fp16_flops, 0) << name;
    EXPECT_GT(g->fp32_flops, 0) << name;
    EXPECT_GT(g->memory_bytes, 0) << name;
    EXPECT_FALSE(g->capability.empty()) << name;
    EXPECT_GT(g->source.size(), 20u) << name;
  }
}

TEST(GpuCatalog, DatasheetValues) {
  const GpuCatalog& cat = GpuCatalog::builtin();
  struct Row {
    const char* name;
    double fp16_T, fp32_T, mem_GB;
    const char* cc;
  };
  for (const Row& r :
       {Row{"A100-40GB", 312, 19.5, 40, "8.0"}, Row{"A100-80GB", 312, 19.5, 80, "8.0"},
        Row{"V100-32GB", 125, 15.7, 32, "7.0"}, Row{"V100-16GB", 125, 15.7, 16, "7.0"}, Row{"T4", 65, 8.1, 16, "7.5"},
        Row{"RTX3090", 71, 35.6, 24, "8.6"}, Row{"A10", 125, 31.2, 24, "8.6"}, Row{"A40", 149.7, 37.4, 48, "8.6"},
        Row{"H100-80GB", 989, 67, 80, "9.0"}, Row{"P100", 21.2, 10.6, 16, "6.0"}, Row{"P40", 0.18, 11.8, 24, "6.1"}}) {
    const GpuSpec* g = cat.find(r.name);
    ASSERT_NE(g, nullptr) << r.name;
    EXPECT_DOUBLE_EQ(g->fp16_flops, r.fp16_T * 1e12) << r.name;
    EXPECT_DOUBLE_EQ(g->fp32_flops, r.fp32_T * 1e12) << r.name;
    EXPECT_DOUBLE_EQ(g->memory_bytes, r.mem_GB * 1e9) << r.name;
    EXPECT_EQ(g->capability, r.cc) << r.name;
  }
  // Pascal's fp16 is slower than its fp32: an fp16 job runs at the fp32 rate.
  EXPECT_DOUBLE_EQ(cat.find("P40")->peak_flops("fp16"), 11.8e12);
  EXPECT_EQ(cat.find("nope"), nullptr);
}

TEST(ModelCatalog, PresetShapes) {
  const ModelCatalog& cat = ModelCatalog::builtin();
  struct Row {
    const char* name;
    int layers, hidden, heads, seq, vocab;
  };
  for (const Row& r : {Row{"bert-large", 24, 1024, 16, 512, 30522}, Row{"gpt2-xl", 48, 1600, 25, 1024, 50257},
                       Row{"gpt3-xl", 24, 2048, 16, 2048, 50257}, Row{"gpt3-2.7b", 32, 2560, 32, 2048, 50257},
                       Row{"gpt3-6.7b", 32, 4096, 32, 2048, 50257}, Row{"gpt3-13b", 40, 5120, 40, 2048, 50257}}) {
    const ModelSpec* m = cat.find(r.name);
    ASSERT_NE(m, nullptr) << r.name;
    EXPECT_EQ(m->layers, r.layers) << r.name;
    EXPECT_EQ(m->hidden, r.hidden) << r.name;
    EXPECT_EQ(m->heads, r.heads) << r.name;
    EXPECT_EQ(m->seq_len, r.seq) << r.name;
    EXPECT_EQ(m->vocab, r.vocab) << r.name;
  }
  for (const auto& m : cat.all()) EXPECT_EQ(m.hidden % m.heads, 0) << m.name;
}

TEST(GpuCatalog, RejectsEntryWithoutSourceAtItsLine) {
  const std::string path = write_temp("gpus_nosource.yaml",
                                      "gpus:\n"
                                      "  - name: X1\n"
                                      "    fp16: 10Tf\n"
                                      "    fp32: 5Tf\n"
                                      "    memory: 8GB\n");
  try {
    GpuCatalog::load(path);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.key(), "gpus.0.source");
    EXPECT_NE(std::string(e.what()).find("missing key 'source'"), std::string::npos) << e.what();
  }
}

TEST(GpuCatalog, RejectsDuplicateNamesAndBadUnits) {
  const std::string dup = write_temp("gpus_dup.yaml",
                                     "gpus:\n"
                                     "  - {name: X, fp16: 1Tf, fp32: 1Tf, memory: 1GB, source: s}\n"
                                     "  - {name: X, fp16: 1Tf, fp32: 1Tf, memory: 1GB, source: s}\n");
  EXPECT_THROW(GpuCatalog::load(dup), InputError);
  const std::string unit =
      write_temp("gpus_unit.yaml", "gpus:\n  - {name: X, fp16: 1GB, fp32: 1Tf, memory: 1GB, source: s}\n");
  try {
    GpuCatalog::load(unit);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "gpus.0.fp16");
    EXPECT_NE(std::string(e.what()).find("unit of a size"), std::string::npos) << e.what();
  }
}

TEST(Catalog, PlatformsDirIsUnderTheDataRoot) {
  ::setenv("HULK_DATA_DIR", "/some/where", 1);
  EXPECT_EQ(platforms_dir(), "/some/where/platforms");
  ::unsetenv("HULK_DATA_DIR");
  EXPECT_EQ(platforms_dir(), std::string(HULK_SOURCE_DIR) + "/platforms");
}
