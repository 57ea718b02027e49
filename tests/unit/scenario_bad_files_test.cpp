// Every tests/data/bad/*.yaml file names, on its first line, the substring its error must contain. The CLI test
// (tests/cli/bad_inputs.sh) checks the same files through the `hulk` binary; this test checks the loader alone,
// so a wrong message is found even without the CLI.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "sim/core/errors.hpp"
#include "sim/methods/scenario_loading.hpp"

using namespace hulk;

TEST(BadFiles, EachFailsWithItsExpectedMessage) {
  const std::filesystem::path dir = std::filesystem::path(HULK_TEST_DATA) / "bad";
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".yaml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  int checked = 0;
  for (const auto& f : files) {
    SCOPED_TRACE(f.filename().string());
    std::ifstream in(f);
    std::string first;
    std::getline(in, first);
    const std::string tag = "# expect: ";
    if (first.rfind("# expect-simulate: ", 0) == 0 || first.rfind("# expect-validate: ", 0) == 0) {
      // Detected by `hulk simulate` (memory depends on the placement) or `hulk validate` (which reads the scenario's
      // placement file): the loader must accept it.
      EXPECT_NO_THROW(load_scenario_file(f.string()));
      continue;
    }
    ASSERT_EQ(first.rfind(tag, 0), 0u) << "first line must be '# expect: <substring>'";
    const std::string expected = first.substr(tag.size());
    try {
      load_scenario_file(f.string());
      ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(expected), std::string::npos) << "message: " << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << "message must be one line: " << what;
      // The message names the scenario, or (data files) the file that is wrong.
      EXPECT_TRUE(what.find(f.filename().string()) != std::string::npos || what.find(".xml") != std::string::npos)
          << what;
      ++checked;
    }
  }
  EXPECT_GE(checked, 22);
}
