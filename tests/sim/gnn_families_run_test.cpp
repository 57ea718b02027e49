// `hulk gnn families`' run (sim/lab/gnn_families_run.hpp) with a learned placer that is not a GNN: every selected row
// is placed in the torch child with its decoder switches, the untrained model is written from the run's seed, and
// the report, the progress and the CSV hold one scenario's row per family.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/lab/gnn_families_run.hpp"
#include "sim/place/placer.hpp"

#include <unistd.h>

namespace hulk {
namespace {

namespace fs = std::filesystem;

/** Round-robin's placement under the name of a learned placer. */
class RoundRobinAsLearned : public Placer {
 public:
  std::string name() const override { return "fake-learned"; }
  Placement place(const Scenario& scenario) override { return round_robin_placement(scenario); }
};

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(GnnFamiliesRun, EverySelectedRowIsPlacedWithItsDecoder) {
  const fs::path dir = fs::temp_directory_path() / ("hulk-families-run-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string log = (dir / "calls.log").string();  // the placer runs in a child: it reports through a file
  FamiliesRunOptions o;
  o.family.count = 1;
  o.family.seed = 7070;
  o.family.max_gpus = 8;
  o.families = {"in-family"};
  o.rows = {"model-only", "gnn", "untrained"};
  o.model = (dir / "trained.pt").string();
  std::ofstream(o.model) << "not read: the placer is a fake";
  o.out = (dir / "rows.csv").string();
  o.untrained_seed = 17;
  o.options.budget = 200;
  o.learned.make_placer = [log](const std::string& model, const LearnedDecoder& d) {
    std::ofstream(log, std::ios::app) << "placer " << fs::path(model).filename().string() << " candidates "
                                      << d.candidates.value_or(-1) << "\n";
    return std::unique_ptr<Placer>(new RoundRobinAsLearned);
  };
  o.learned.save_untrained_model = [log](const std::string& path, std::uint64_t seed) {
    std::ofstream(path) << "fresh";
    std::ofstream(log, std::ios::app) << "untrained seed " << seed << "\n";
  };
  std::vector<std::string> lines;
  int families = 0;
  const FamiliesReport r = run_gnn_families(o, [&](const std::string& line) { lines.push_back(line); },
                                            [&](const FamilyFigures&) { ++families; });
  EXPECT_TRUE(r.failed.empty());
  EXPECT_EQ(families, 1);
  ASSERT_EQ(r.figures.size(), 1u);
  EXPECT_EQ(r.figures[0].cases, 1);
  std::vector<std::string> rows;
  for (const FamilyRow& row : r.figures[0].rows) rows.push_back(row.variant);
  EXPECT_EQ(rows, (std::vector<std::string>{"gnn", "untrained", "model-only", "equal-budget"}));
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].rfind("gnn-families: [1/1] in-family ", 0), 0u) << lines[0];
  // The table's order, the untrained row on the fresh weights, model-only's argmax decode.
  const std::string calls = read(log);
  EXPECT_EQ(calls.rfind("untrained seed 17\nplacer trained.pt candidates -1\nplacer hulk-untrained-", 0), 0u) << calls;
  EXPECT_NE(calls.find(".pt candidates -1\nplacer trained.pt candidates 1\n"), std::string::npos) << calls;
  const std::string csv = read(o.out);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 2) << csv;  // the header, then the one row
  EXPECT_EQ(csv.rfind("family,name,greedy_s,search_s,search_wall_s,gnn_s,untrained_s,model-only_s,equal-budget_s,", 0),
            0u)
      << csv;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hulk
