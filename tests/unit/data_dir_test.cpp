// The one resolver of the bundled data: $HULK_DATA_DIR, then PREFIX/share/hulk beside an installed program, then the
// source tree; a missing data file is one error naming the file and where it was looked for.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "sim/core/data_dir.hpp"
#include "sim/core/errors.hpp"

using namespace hulk;
namespace fs = std::filesystem;

namespace {

/** A fresh folder of this process under the test framework's temporary directory. */
std::string fresh_dir(const std::string& name) {
  const fs::path dir = fs::path(testing::TempDir()) / ("hulk-data-" + std::to_string(::getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

/** PREFIX/bin/hulk, with PREFIX/share/hulk/platforms when `with_data`; returns the program's path. */
std::string installed_program(const std::string& prefix, bool with_data) {
  fs::create_directories(prefix + "/bin");
  std::ofstream(prefix + "/bin/hulk") << "";
  if (with_data) fs::create_directories(prefix + "/share/hulk/platforms");
  return prefix + "/bin/hulk";
}

/** Restores $HULK_DATA_DIR when a test ends, whatever it set. */
class DataDirEnv : public testing::Test {
 protected:
  void SetUp() override {
    const char* v = std::getenv("HULK_DATA_DIR");
    had_ = v != nullptr;
    if (had_) saved_ = v;
  }
  void TearDown() override {
    if (had_) ::setenv("HULK_DATA_DIR", saved_.c_str(), 1);
    else ::unsetenv("HULK_DATA_DIR");
  }

 private:
  bool had_ = false;
  std::string saved_;
};

}  // namespace

TEST(DataRoot, TheEnvironmentComesFirst) {
  const std::string exe = installed_program(fresh_dir("env-first"), true);
  const DataRoot r = choose_data_root("/chosen/data", exe, "/source/tree");
  EXPECT_EQ(r.dir, "/chosen/data");
  EXPECT_NE(r.origin.find("HULK_DATA_DIR"), std::string::npos) << r.origin;
}

TEST(DataRoot, ThenTheInstalledDataBesideTheProgram) {
  const std::string prefix = fresh_dir("installed");
  const std::string exe = installed_program(prefix, true);
  const DataRoot r = choose_data_root("", exe, "/source/tree");
  EXPECT_EQ(fs::path(r.dir), fs::path(prefix) / "share" / "hulk");
  EXPECT_NE(r.origin.find(exe), std::string::npos) << r.origin;
}

TEST(DataRoot, ThenTheSourceTreeNamingWhatWasMissing) {
  const std::string prefix = fresh_dir("no-data");
  const std::string exe = installed_program(prefix, false);
  fs::create_directories(prefix + "/share/hulk/models");  // a share/hulk without platforms/ is not the data
  const DataRoot r = choose_data_root("", exe, "/source/tree");
  EXPECT_EQ(r.dir, "/source/tree");
  EXPECT_NE(r.origin.find("no " + prefix + "/share/hulk/platforms"), std::string::npos) << r.origin;
  EXPECT_EQ(choose_data_root("", "", "/source/tree").dir, "/source/tree");  // the program's path unknown
}

TEST_F(DataDirEnv, ThisProgramUsesTheSameRule) {
  ::setenv("HULK_DATA_DIR", "/some/where", 1);
  EXPECT_EQ(data_dir(), "/some/where");
  EXPECT_EQ(data_path("models/hulk-gnn.pt"), "/some/where/models/hulk-gnn.pt");
  ::unsetenv("HULK_DATA_DIR");
  EXPECT_EQ(data_dir(), std::string(HULK_SOURCE_DIR));  // a test program runs from the build tree
  ::setenv("HULK_DATA_DIR", "", 1);  // set but empty: as if unset
  EXPECT_EQ(data_dir(), std::string(HULK_SOURCE_DIR));
}

TEST_F(DataDirEnv, AMissingFileNamesItselfAndWhereItWasLookedFor) {
  const std::string root = fresh_dir("root");
  fs::create_directories(root + "/platforms");
  std::ofstream(root + "/platforms/gpus.yaml") << "gpus: []\n";
  ::setenv("HULK_DATA_DIR", root.c_str(), 1);
  EXPECT_EQ(data_file("platforms/gpus.yaml"), root + "/platforms/gpus.yaml");
  try {
    data_file("platforms/models.yaml");
    FAIL() << "no error for a missing data file";
  } catch (const MissingDataFile& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.file(), root + "/platforms/models.yaml");
    EXPECT_NE(what.find("platforms/models.yaml is missing (looked in " + root + ", from $HULK_DATA_DIR"),
              std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  EXPECT_THROW(data_file("platforms"), InputError);  // a folder is not the file asked for
}
