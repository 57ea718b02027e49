// The learned rows of `hulk gnn families` (sim/lab/gnn_family_rows.hpp): their order, the selection by --rows, and
// the annealing each row runs after its placer.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/lab/gnn_family_rows.hpp"

namespace hulk {
namespace {

std::vector<std::string> names(const std::vector<LearnedRow>& rows) {
  std::vector<std::string> out;
  for (const LearnedRow& r : rows) out.push_back(r.name);
  return out;
}

const LearnedRow& named(const std::vector<LearnedRow>& rows, const std::string& name) {
  for (const LearnedRow& r : rows)
    if (r.name == name) return r;
  throw std::runtime_error("no row " + name);
}

TEST(GnnFamilyRows, GnnFirstAndTheChallengerLastWithItsModel) {
  const std::vector<LearnedRow> rows = learned_rows("");
  ASSERT_EQ(rows.size(), 21u);
  EXPECT_EQ(rows.front().name, "gnn");
  EXPECT_EQ(rows[1].name, "untrained");
  EXPECT_EQ(rows.back().name, "model-only-untrained");
  const std::vector<LearnedRow> with = learned_rows("other.pt");
  ASSERT_EQ(with.size(), 22u);
  EXPECT_EQ(with.back().name, "challenger");
  EXPECT_EQ(with.back().model, "other.pt");
  EXPECT_FALSE(with.back().decoder.candidates.has_value());  // gnn's decoder on the other file
}

TEST(GnnFamilyRows, UntrainedRowsCopyTheirTrainedRowWithFreshWeights) {
  const std::vector<LearnedRow> rows = learned_rows("");
  for (const auto& [trained, fresh] : {std::pair<std::string, std::string>{"gnn", "untrained"},
                                       {"guided", "guided-untrained"}, {"guided-then-blind", "guided-then-blind-untrained"},
                                       {"blind", "blind-untrained"}, {"model-only", "model-only-untrained"}}) {
    const LearnedRow& t = named(rows, trained);
    const LearnedRow& u = named(rows, fresh);
    EXPECT_FALSE(t.untrained) << trained;
    EXPECT_TRUE(u.untrained) << fresh;
    EXPECT_EQ(t.decoder.candidates, u.decoder.candidates) << fresh;
    EXPECT_EQ(t.decoder.guided_anneal, u.decoder.guided_anneal) << fresh;
    EXPECT_EQ(t.anneal.evaluations, u.anneal.evaluations) << fresh;
  }
  // gnn anneals blindly from the alternative start only; blind is the method without the guided annealing.
  EXPECT_FALSE(named(rows, "gnn").anneal.anneal_from_start);
  EXPECT_EQ(named(rows, "blind").decoder.guided_anneal, 0);
  EXPECT_TRUE(named(rows, "blind").anneal.anneal_from_start);
  const LearnedRow& model_only = named(rows, "model-only");
  EXPECT_EQ(model_only.decoder.candidates, 1);
  EXPECT_EQ(model_only.decoder.greedy_candidate, false);
  EXPECT_EQ(model_only.anneal.evaluations, 0);
}

TEST(GnnFamilyRows, SelectionKeepsTheTableOrderAndTheChallenger) {
  const std::vector<LearnedRow> all = learned_rows("other.pt");
  EXPECT_EQ(names(selected_rows(all, {})), names(all));
  EXPECT_EQ(names(selected_rows(all, {"model-only", "gnn"})),
            (std::vector<std::string>{"gnn", "model-only", "challenger"}));
}

TEST(GnnFamilyRows, SelectionRefusesUnknownRowsAndRowsWithoutGnn) {
  const std::vector<LearnedRow> all = learned_rows("");
  try {
    selected_rows(all, {"gnn", "bogus"});
    FAIL() << "an unknown row was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--rows: unknown row 'bogus'"), std::string::npos) << e.what();
  }
  try {
    selected_rows(all, {"untrained"});
    FAIL() << "rows without gnn were accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("must include gnn"), std::string::npos) << e.what();
  }
}

TEST(GnnFamilyRows, TheAnnealingFollowsTheDecodersReorderingsAndRings) {
  const std::vector<LearnedRow> rows = learned_rows("");
  const LearnedAnnealOptions gnn = row_anneal(named(rows, "gnn"));
  EXPECT_EQ(gnn.stage_orders, kLearnedStageOrders);
  EXPECT_TRUE(gnn.tp_rings);
  const LearnedAnnealOptions no_reorder = row_anneal(named(rows, "no-reorder"));
  EXPECT_EQ(no_reorder.stage_orders, 0);
  EXPECT_TRUE(no_reorder.tp_rings);
  const LearnedAnnealOptions no_polish = row_anneal(named(rows, "no-polish"));
  EXPECT_EQ(no_polish.stage_orders, 0);
  EXPECT_FALSE(no_polish.tp_rings);
  EXPECT_EQ(no_polish.evaluations, 0);
}

TEST(GnnFamilyRows, BudgetsChangeOnlyTheRowsThatRunThatAnnealing) {
  const std::vector<LearnedRow> all = learned_rows("");
  const std::vector<LearnedRow> same = with_budgets(all, std::nullopt, std::nullopt);
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(same[i].decoder.guided_anneal, all[i].decoder.guided_anneal) << all[i].name;
    EXPECT_EQ(same[i].anneal.evaluations, all[i].anneal.evaluations) << all[i].name;
  }
  const std::vector<LearnedRow> cheap = with_budgets(all, 64, 0);
  for (const char* name : {"gnn", "untrained", "guided", "guided-then-blind"})
    EXPECT_EQ(named(cheap, name).decoder.guided_anneal, 64) << name;
  // Rows without the guided annealing keep none; the model alone gets no evaluated step either way.
  EXPECT_EQ(named(cheap, "blind").decoder.guided_anneal, 0);
  EXPECT_EQ(named(cheap, "no-anneal").decoder.guided_anneal, 0);
  EXPECT_EQ(named(cheap, "gnn").anneal.evaluations, 0);
  EXPECT_EQ(named(cheap, "model-only").anneal.evaluations, 0);
  const std::vector<LearnedRow> dear = with_budgets(all, std::nullopt, 512);
  EXPECT_EQ(named(dear, "gnn").anneal.evaluations, 512);
  EXPECT_EQ(named(dear, "no-anneal").anneal.evaluations, 0);
  EXPECT_EQ(named(dear, "model-only").anneal.evaluations, 0);
  EXPECT_FALSE(named(dear, "gnn").decoder.guided_anneal.has_value());
}

}  // namespace
}  // namespace hulk
