// Property: whatever the bytes, the loader either returns a scenario or throws InputError (one line). Any other
// exception (yaml-cpp's BadSubscript/InvalidNode, std::out_of_range, ...) or a crash is a bug. Seeded mutations of
// every example scenario and override strings.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "sim/core/errors.hpp"
#include "sim/methods/scenario_loading.hpp"

using namespace hulk;

namespace {

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// One random edit: delete, insert or replace a character, duplicate or drop a line, or splice in a YAML fragment.
std::string mutate(std::string text, std::mt19937_64& rng) {
  static const std::string alphabet = " :-[]{},#&*!|>'\"%@`\n\t0123456789abcxyzGbpsmuT.";
  static const std::vector<std::string> fragments = {"[",
                                                     "]",
                                                     "{}",
                                                     ": ",
                                                     "- ",
                                                     "~",
                                                     "null",
                                                     "-1",
                                                     "0",
                                                     "1e999",
                                                     "nan",
                                                     "&a x",
                                                     "*a",
                                                     "!!int",
                                                     "? [a]: b",
                                                     "\n  - x",
                                                     "{a: [1, {b: c}]}",
                                                     "99999999999999999999",
                                                     "regions",
                                                     "between: [a]",
                                                     "hosts: []",
                                                     "'\\x00'"};
  if (text.empty()) return fragments[rng() % fragments.size()];
  const std::size_t pos = rng() % text.size();
  switch (rng() % 6) {
    case 0:
      text.erase(pos, 1 + rng() % 8);
      break;
    case 1:
      text.insert(pos, 1, alphabet[rng() % alphabet.size()]);
      break;
    case 2:
      text[pos] = alphabet[rng() % alphabet.size()];
      break;
    case 3: {
      const std::size_t b = text.rfind('\n', pos), e = text.find('\n', pos);
      const std::size_t start = b == std::string::npos ? 0 : b + 1;
      const std::string line = text.substr(start, (e == std::string::npos ? text.size() : e) - start);
      text.insert(start, line + "\n");
      break;
    }
    case 4: {
      const std::size_t e = text.find('\n', pos);
      text.erase(pos, e == std::string::npos ? std::string::npos : e - pos);
      break;
    }
    default:
      text.insert(pos, fragments[rng() % fragments.size()]);
  }
  return text;
}

}  // namespace

TEST(ScenarioFuzz, MutatedFilesGiveScenarioOrInputError) {
  const std::string dir = std::string(HULK_SOURCE_DIR) + "/scenarios/examples/";
  const std::string out_dir = testing::TempDir() + "/hulk_fuzz";
  std::filesystem::create_directories(out_dir);
  // Examples that need no other file next to them (the SimGrid one would load SimGrid per case: too slow here).
  std::mt19937_64 rng(20260301);
  int accepted = 0, rejected = 0;
  for (const char* name : {"two-region-gpt.yaml", "three-region-pcie.yaml"}) {
    const std::string original = read(dir + name);
    for (int i = 0; i < 300; ++i) {
      std::string text = original;
      const int edits = 1 + static_cast<int>(rng() % 4);
      for (int k = 0; k < edits; ++k) text = mutate(text, rng);
      const std::string path = out_dir + "/case.yaml";
      std::ofstream(path, std::ios::trunc) << text;
      try {
        load_scenario_file(path);
        ++accepted;
      } catch (const InputError& e) {
        ++rejected;
        // Independent problems are listed one per line; each line is a complete error naming the file.
        std::istringstream lines(e.what());
        for (std::string line; std::getline(lines, line);) ASSERT_EQ(line.rfind(path + ":", 0), 0u) << e.what();
      } catch (const std::exception& e) {
        FAIL() << "non-InputError exception " << typeid(e).name() << ": " << e.what() << "\n--- input ---\n" << text;
      }
    }
  }
  // Both outcomes must occur, or the mutations are not exercising anything.
  EXPECT_GT(accepted, 10);
  EXPECT_GT(rejected, 100);
}

TEST(ScenarioFuzz, RandomOverridesGiveScenarioOrInputError) {
  const std::string file = std::string(HULK_SOURCE_DIR) + "/scenarios/examples/two-region-gpt.yaml";
  const std::vector<std::string> keys = {"job",
                                         "job.model",
                                         "job.model.preset",
                                         "regions",
                                         "regions.0",
                                         "regions.tokyo.gpu",
                                         "regions.1.gpu.flops",
                                         "wan",
                                         "wan.pairs",
                                         "wan.pairs.0.between",
                                         "wan.pairs.0.between.1",
                                         "network",
                                         "placement",
                                         "platform",
                                         "seed",
                                         "name",
                                         "job.parallelism.dp",
                                         "regions.tokyo",
                                         "platform.regions.5",
                                         "x.y.z",
                                         "wan.default"};
  const std::vector<std::string> values = {"",
                                           "~",
                                           "[]",
                                           "{}",
                                           "0",
                                           "-1",
                                           "3",
                                           "1Gbps",
                                           "[a, b]",
                                           "{x: 1}",
                                           "tokyo",
                                           "[virginia, virginia]",
                                           "{preset: bert-large}",
                                           "'",
                                           "1e400",
                                           "{name: q, hosts: 1, gpu: T4}",
                                           "[{name: q, hosts: 1, gpu: T4}]"};
  std::mt19937_64 rng(7);
  for (int i = 0; i < 800; ++i) {
    std::vector<Override> ov;
    const int n = 1 + static_cast<int>(rng() % 3);
    for (int k = 0; k < n; ++k) ov.push_back({keys[rng() % keys.size()], values[rng() % values.size()]});
    try {
      load_scenario_file(file, ov);
    } catch (const InputError&) {
    } catch (const std::exception& e) {
      std::string desc;
      for (const auto& o : ov) desc += o.key + "=" + o.value + " ";
      FAIL() << "non-InputError exception " << typeid(e).name() << ": " << e.what() << " for " << desc;
    }
  }
}
