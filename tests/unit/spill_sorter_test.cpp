// SpillSorter: the merged stream of spilled runs is the order one std::sort of everything gives, whatever the
// buffer size; nothing is left on disk; a drained sorter starts again empty.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <tuple>
#include <vector>

#include "sim/core/spill_sorter.hpp"

namespace {

struct Rec {
  int key = 0;
  double t = 0;
  int id = 0;  // unique: makes the order total, so the whole sequence can be compared
};
struct RecLess {
  bool operator()(const Rec& a, const Rec& b) const { return std::tie(a.key, a.t, a.id) < std::tie(b.key, b.t, b.id); }
};

std::vector<Rec> random_records(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<Rec> v;
  for (int i = 0; i < n; ++i) v.push_back({static_cast<int>(rng() % 7), static_cast<double>(rng() % 100), i});
  return v;
}

std::vector<int> ids_after_spill(const std::vector<Rec>& in, std::size_t buffer, const std::string& dir,
                                 std::size_t* runs = nullptr) {
  hulk::SpillSorter<Rec, RecLess> sorter(buffer, dir);
  for (const Rec& r : in) sorter.push(r);
  EXPECT_EQ(sorter.size(), in.size());
  if (runs) *runs = sorter.runs_on_disk();
  std::vector<int> out;
  sorter.drain([&](const Rec& r) { out.push_back(r.id); });
  EXPECT_EQ(sorter.size(), 0u);
  return out;
}

}  // namespace

TEST(SpillSorter, SameOrderAsOneSortForEveryBufferSize) {
  const std::vector<Rec> in = random_records(5000, 3);
  std::vector<Rec> sorted = in;
  std::sort(sorted.begin(), sorted.end(), RecLess());
  std::vector<int> expected;
  for (const Rec& r : sorted) expected.push_back(r.id);
  for (std::size_t buffer : {1, 2, 7, 64, 4095, 4096, 4097, 5000, 100000}) {
    std::size_t runs = 0;
    EXPECT_EQ(ids_after_spill(in, buffer, "", &runs), expected) << "buffer " << buffer;
    using Sorter = hulk::SpillSorter<Rec, RecLess>;
    // A full buffer spills at once; past kMaxRuns the runs on disk are merged into one (few open files).
    if (in.size() / buffer < Sorter::kMaxRuns) EXPECT_EQ(runs, in.size() / buffer) << "buffer " << buffer;
    EXPECT_LT(runs, Sorter::kMaxRuns) << "buffer " << buffer;
  }
}

TEST(SpillSorter, EmptyAndReusable) {
  hulk::SpillSorter<Rec, RecLess> sorter(3);
  int visits = 0;
  sorter.drain([&](const Rec&) { ++visits; });
  EXPECT_EQ(visits, 0);
  for (const Rec& r : random_records(10, 1)) sorter.push(r);
  sorter.drain([&](const Rec&) { ++visits; });
  EXPECT_EQ(visits, 10);
  sorter.push({1, 1, 99});
  std::vector<int> ids;
  sorter.drain([&](const Rec& r) { ids.push_back(r.id); });
  EXPECT_EQ(ids, std::vector<int>{99});
}

TEST(SpillSorter, LeavesNoFileInItsFolder) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("hulk_spill_test_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  {
    hulk::SpillSorter<Rec, RecLess> sorter(10, dir.string());
    for (const Rec& r : random_records(1000, 2)) sorter.push(r);
    EXPECT_GT(sorter.runs_on_disk(), 0u);
    EXPECT_TRUE(fs::is_empty(dir));  // spill files are unlinked as soon as they are made
  }
  EXPECT_TRUE(fs::is_empty(dir));
  fs::remove_all(dir);
}

TEST(SpillSorter, UnwritableFolderIsAnError) {
  hulk::SpillSorter<Rec, RecLess> sorter(1, "/nonexistent-hulk-folder");
  EXPECT_THROW(sorter.push({0, 0, 0}), std::runtime_error);
}
