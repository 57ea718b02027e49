// One method list: the scenario loader and the command line's registry accept exactly the same names,
// and reject an unknown one with the same list and a did-you-mean.
#include <gtest/gtest.h>

#include <string>

#include "sim/core/errors.hpp"
#include "sim/core/method_names.hpp"
#include "sim/methods/method_registry.hpp"
#include "sim/methods/scenario_loading.hpp"

namespace hulk {
namespace {

const std::string kTiny = std::string(HULK_TEST_DATA) + "/tiny/tiny.yaml";

TEST(MethodNames, ScenarioAcceptsGnnRefineAsWritten) {
  EXPECT_EQ(load_scenario_file(kTiny).placement, "gnn+refine");
}

TEST(MethodNames, ScenarioAcceptsEveryNameTheRegistryKnows) {
  EXPECT_EQ(known_methods(), method_name_list());
  EXPECT_EQ(known_methods().size(), 8u);
  for (const auto& m : known_methods()) {
    EXPECT_EQ(load_scenario_file(kTiny, {{"placement", m}}).placement, m);
    EXPECT_NO_THROW(check_method(m, "", "--methods")) << m;
  }
}

TEST(MethodNames, ScenarioAndCommandLineRejectUnknownNamesAlike) {
  std::string from_scenario, from_cli;
  try {
    load_scenario_file(kTiny, {{"placement", "gnn+refin"}});
  } catch (const InputError& e) {
    from_scenario = e.what();
  }
  try {
    parse_method_list("greedy,gnn+refin");
  } catch (const InputError& e) {
    from_cli = e.what();
  }
  const std::string message = unknown_method_message("gnn+refin");
  EXPECT_NE(message.find("did you mean 'gnn+refine'?"), std::string::npos) << message;
  EXPECT_NE(message.find("round-robin, random, greedy, search, robust, exhaustive, gnn, gnn+refine, file:PATH"),
            std::string::npos)
      << message;
  EXPECT_NE(from_scenario.find(message), std::string::npos) << from_scenario;
  EXPECT_NE(from_scenario.find("placement"), std::string::npos) << from_scenario;
  EXPECT_NE(from_cli.find(message), std::string::npos) << from_cli;
  EXPECT_NE(from_cli.find("--methods"), std::string::npos) << from_cli;
}

TEST(MethodNames, EveryNameHasADescriptionInTheHelp) {
  const std::string help = methods_help();
  for (const auto& m : method_names()) {
    EXPECT_GT(std::string(m.description).size(), 10u) << m.name;
    EXPECT_NE(help.find(std::string("  ") + m.name + " "), std::string::npos) << m.name;
  }
  EXPECT_NE(help.find("file:PATH"), std::string::npos);
}

}  // namespace
}  // namespace hulk
