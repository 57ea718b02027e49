// Several jobs in one scenario (`jobs:`): the loader reads names, weights and every job's keys, checks each job on
// its own and all jobs together, and each problem is one line naming the file, the line and the key path
// jobs[i].KEY. Overrides address jobs by index and by name; the JSON sample format round-trips them.
#include <gtest/gtest.h>

#include "temp_file.hpp"

#include <filesystem>
#include <fstream>

#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/scenario/scenario_json.hpp"

using namespace hulk;

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  return hulk_test::write_temp_file("hulk_scenario_jobs_tests", name, text);
}

// Two jobs on 8 GPUs (2 + 4 ranks); tests change one line of it.
const std::string kJobs =
    "name: jobs-base\n"                                 // 1
    "platform:\n"                                       // 2
    "  regions:\n"                                      // 3
    "    - name: east\n"                                // 4
    "      hosts: 2\n"                                  // 5
    "      gpus_per_host: 2\n"                          // 6
    "      gpu: A100-40GB\n"                            // 7
    "    - name: west\n"                                // 8
    "      hosts: 2\n"                                  // 9
    "      gpus_per_host: 2\n"                          // 10
    "      gpu: V100-32GB\n"                            // 11
    "  wan:\n"                                          // 12
    "    default: {bandwidth: 1Gbps, latency: 30ms}\n"  // 13
    "jobs:\n"                                           // 14
    "  - name: bert\n"                                  // 15
    "    model: {preset: bert-large}\n"                 // 16
    "    global_batch: 16\n"                            // 17
    "    micro_batch: 2\n"                              // 18
    "    parallelism: {dp: 2, tp: 1, pp: 1}\n"          // 19
    "    iterations: 3\n"                               // 20
    "  - name: gpt\n"                                   // 21
    "    weight: 2.5\n"                                 // 22
    "    model: {preset: gpt3-xl}\n"                    // 23
    "    global_batch: 16\n"                            // 24
    "    micro_batch: 2\n"                              // 25
    "    parallelism: {dp: 2, tp: 2, pp: 1}\n";         // 26

// The same platform with one job (`job:`).
const std::string kOneJob =
    kJobs.substr(0, kJobs.find("jobs:\n")) +
    "job:\n"
    "  model: {preset: gpt3-xl}\n"
    "  global_batch: 16\n"
    "  micro_batch: 2\n"
    "  parallelism: {dp: 2, tp: 2, pp: 2}\n";

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const auto pos = text.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  if (pos != std::string::npos) text.replace(pos, from.size(), to);
  return text;
}

struct Failure {
  std::string path;
  std::string key;
  int line = -1;
  std::string what;
};

Failure load_error(const std::string& name, const std::string& text, const std::vector<Override>& ov = {}) {
  const std::string path = write_temp(name, text);
  try {
    load_scenario(path, ov);
  } catch (const InputError& e) {
    return {path, e.key(), e.line(), e.what()};
  }
  ADD_FAILURE() << name << ": expected an InputError";
  return {path, "", -1, ""};
}

// One line naming the file, the line ("FILE:LINE: KEY: ..."), the key path and what was expected.
void expect_error(const Failure& f, const std::string& key, int line, const std::string& message) {
  EXPECT_EQ(f.key, key) << f.what;
  EXPECT_EQ(f.line, line) << f.what;
  const std::string head = f.path + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " + key + ": ";
  EXPECT_EQ(f.what.rfind(head, 0), 0u) << "expected to start with '" << head << "': " << f.what;
  EXPECT_NE(f.what.find(message), std::string::npos) << f.what;
  EXPECT_EQ(f.what.find('\n'), std::string::npos) << "one line expected: " << f.what;
}

}  // namespace

TEST(ScenarioJobs, TwoJobsLoadWithNamesWeightsAndDefaults) {
  const Scenario s = load_scenario(write_temp("jobs.yaml", kJobs));
  ASSERT_EQ(s.jobs.size(), 2u);
  EXPECT_TRUE(names_jobs(s));
  EXPECT_EQ(job_count(s), 2);
  EXPECT_EQ(total_ranks(s), 6);
  EXPECT_EQ(s.jobs[0].name, "bert");
  EXPECT_EQ(s.jobs[1].name, "gpt");
  EXPECT_DOUBLE_EQ(s.jobs[0].weight, 1.0);  // default
  EXPECT_DOUBLE_EQ(s.jobs[1].weight, 2.5);
  EXPECT_EQ(s.jobs[0].model.name, "bert-large");
  EXPECT_EQ(s.jobs[1].model.name, "gpt3-xl");
  EXPECT_EQ(s.jobs[0].iterations, 3);
  EXPECT_EQ(s.jobs[1].iterations, 1);  // JobSpec default
  EXPECT_EQ(s.jobs[1].par.tp, 2);
  EXPECT_EQ(s.jobs[1].schedule, "1f1b");
  // One-job code cannot read a job of several; a view of the first is the one-job scenario of that job.
  EXPECT_THROW(s.only_job(), std::logic_error);
  const Scenario first = job_view(s, 0);
  EXPECT_FALSE(names_jobs(first));
  EXPECT_EQ(first.only_job().name, "bert");
  EXPECT_EQ(first.only_job().iterations, 3);
  EXPECT_EQ(first.only_job().par.dp, 2);
  EXPECT_NO_THROW(validate_job(s));
}

TEST(ScenarioJobs, OneJobScenariosAreUnchanged) {
  const Scenario s = load_scenario(write_temp("one-job.yaml", kOneJob));
  ASSERT_EQ(s.jobs.size(), 1u);  // one job is the list of one
  EXPECT_FALSE(names_jobs(s));
  EXPECT_EQ(s.only_job().name, "");
  EXPECT_EQ(s.only_job().par.pp, 2);
  // One-job messages keep their job.* key paths.
  expect_error(load_error("one-job-tp.yaml", replace(kOneJob, "tp: 2, pp: 2", "tp: 3, pp: 2")),
               "job.parallelism.tp", 18, "heads 16 are not divisible by tp 3");
  expect_error(load_error("one-job-name.yaml", kOneJob + "  name: x\n"), "job.name", 19, "unknown key 'name'");
}

TEST(ScenarioJobs, ExampleLoads) {
  const Scenario s = load_scenario(std::string(HULK_SOURCE_DIR) + "/scenarios/examples/two-jobs.yaml");
  ASSERT_EQ(s.jobs.size(), 2u);
  EXPECT_EQ(s.platform.regions.size(), 3u);
  EXPECT_LE(total_ranks(s), s.platform.total_gpus());
  EXPECT_EQ(s.jobs[0].iterations, 2);
  EXPECT_EQ(s.jobs[1].iterations, 2);
}

TEST(ScenarioJobs, JobAndJobsTogetherIsAnError) {
  const Failure f = load_error("both.yaml", kJobs +
                                                "job:\n"
                                                "  model: {preset: gpt3-xl}\n"
                                                "  global_batch: 16\n");
  expect_error(f, "jobs", 15, "both job: and jobs: are given");
}

TEST(ScenarioJobs, NeitherJobNorJobsIsAnError) {
  const Failure f = load_error("neither.yaml", kJobs.substr(0, kJobs.find("jobs:\n")));
  expect_error(f, "job", 1, "missing key 'job'");
  EXPECT_NE(f.what.find("jobs:"), std::string::npos) << f.what;
}

TEST(ScenarioJobs, EmptyOrNonListJobsIsAnError) {
  expect_error(load_error("empty.yaml", kJobs.substr(0, kJobs.find("jobs:\n")) + "jobs: []\n"), "jobs", 14,
               "expected a list of at least one job, got an empty list");
  expect_error(load_error("map.yaml", kJobs.substr(0, kJobs.find("jobs:\n")) + "jobs: {a: 1}\n"), "jobs", 14,
               "expected a list of jobs, got a map (for a single job use job:");
  expect_error(load_error("scalar.yaml", kJobs.substr(0, kJobs.find("jobs:\n")) + "jobs: bert\n"), "jobs", 14,
               "expected a list, got 'bert'");
}

TEST(ScenarioJobs, MissingName) {
  expect_error(load_error("no-name.yaml", replace(kJobs, "  - name: gpt\n    weight: 2.5\n", "  - weight: 2.5\n")),
               "jobs[1].name", 21, "missing key 'name'");
  expect_error(load_error("empty-name.yaml", replace(kJobs, "name: gpt", "name: ''")), "jobs[1].name", 21,
               "expected a non-empty string");
}

TEST(ScenarioJobs, DuplicateNameNamesBothIndices) {
  const Failure f = load_error("dup.yaml", replace(kJobs, "name: gpt", "name: bert"));
  expect_error(f, "jobs[1].name", 21, "duplicate job name 'bert' (also jobs[0].name");
}

TEST(ScenarioJobs, WeightMustBeInItsBounds) {
  expect_error(load_error("w0.yaml", replace(kJobs, "weight: 2.5", "weight: 0")), "jobs[1].weight", 22,
               "weight 0 is out of range (expected 1e-06 .. 1e+06");
  // 1e308 is finite, but the weighted mean overflowed: objective 0, every speedup NaN.
  expect_error(load_error("whuge.yaml", replace(kJobs, "weight: 2.5", "weight: 1e308")), "jobs[1].weight", 22,
               "weight 1e+308 is out of range (expected 1e-06 .. 1e+06");
  expect_error(load_error("wneg.yaml", replace(kJobs, "weight: 2.5", "weight: -1")), "jobs[1].weight", 22,
               "weight -1 is out of range");
  expect_error(load_error("wword.yaml", replace(kJobs, "weight: 2.5", "weight: heavy")), "jobs[1].weight", 22,
               "expected a number, got 'heavy'");
  expect_error(load_error("winf.yaml", replace(kJobs, "weight: 2.5", "weight: .inf")), "jobs[1].weight", 22,
               "expected a number, got '.inf'");
}

TEST(ScenarioJobs, UnknownKeyInAJobSuggestsTheKnownOne) {
  expect_error(load_error("typo.yaml", replace(kJobs, "    iterations: 3\n", "    iteratons: 3\n")),
               "jobs[0].iteratons", 20, "unknown key 'iteratons' (did you mean 'iterations'?)");
  expect_error(load_error("typo2.yaml", replace(kJobs, "    weight: 2.5\n", "    wieght: 2.5\n")), "jobs[1].wieght",
               22, "did you mean 'weight'?");
}

TEST(ScenarioJobs, AllJobsTogetherMustFitTheGpus) {
  // Each job fits on its own (2 and 8 ranks of 8 GPUs), together they do not.
  const Failure f = load_error("sum.yaml", replace(kJobs, "{dp: 2, tp: 2, pp: 1}", "{dp: 2, tp: 2, pp: 2}"));
  expect_error(f, "jobs", 15, "the jobs' dp x tp x pp add up to 2 + 8 = 10 ranks (bert 2, gpt 8), but the platform "
                              "has 8 GPUs");
}

TEST(ScenarioJobs, PerJobProblemsNameTheJobAndItsLine) {
  expect_error(load_error("tp.yaml", replace(kJobs, "{dp: 2, tp: 2, pp: 1}", "{dp: 2, tp: 3, pp: 1}")),
               "jobs[1].parallelism.tp", 26, "heads 16 are not divisible by tp 3");
  expect_error(load_error("ranks.yaml", replace(kJobs, "{dp: 2, tp: 2, pp: 1}", "{dp: 4, tp: 2, pp: 2}")),
               "jobs[1].parallelism", 26, "dp x tp x pp = 4 x 2 x 2 = 16 ranks, but the platform has 8 GPUs");
  // The first job's global_batch (line 17), not the second's.
  const std::string first_batch = "    global_batch: 16\n    micro_batch: 2\n    parallelism: {dp: 2, tp: 1";
  expect_error(load_error("batch.yaml", replace(kJobs, first_batch, replace(first_batch, "16", "15"))),
               "jobs[0].global_batch", 17, "global_batch 15 is not divisible by dp x micro_batch");
  expect_error(load_error("iter.yaml", replace(kJobs, "iterations: 3", "iterations: 0")), "jobs[0].iterations", 20,
               "expected an integer >= 1, got 0");
  expect_error(load_error("dp-word.yaml", replace(kJobs, "{dp: 2, tp: 2, pp: 1}", "{dp: two, tp: 2, pp: 1}")),
               "jobs[1].parallelism.dp", 26, "expected an integer, got 'two'");
  expect_error(load_error("preset.yaml", replace(kJobs, "preset: gpt3-xl", "preset: gpt3-xxl")),
               "jobs[1].model.preset", 23, "unknown model preset 'gpt3-xxl'");
}

TEST(ScenarioJobs, OverridesByIndexAndByName) {
  const std::string path = write_temp("ov.yaml", kJobs);
  const Scenario a = load_scenario(path, {{"jobs.1.iterations", "4"}});
  EXPECT_EQ(a.jobs[1].iterations, 4);
  EXPECT_EQ(a.jobs[0].iterations, 3);
  const Scenario b = load_scenario(path, {{"jobs.gpt.iterations", "5"}, {"jobs.bert.weight", "3"}});
  EXPECT_EQ(b.jobs[1].iterations, 5);
  EXPECT_DOUBLE_EQ(b.jobs[0].weight, 3.0);
  // Scenario::job follows the overridden first job.
  const Scenario c = load_scenario(path, {{"jobs.bert.parallelism.dp", "4"}});
  EXPECT_EQ(c.jobs[0].par.dp, 4);
  // A bad overridden value names the job's key path and the override (no line: the file does not hold it).
  Failure f = load_error("ov.yaml", kJobs, {{"jobs.gpt.parallelism.tp", "3"}});
  expect_error(f, "jobs[1].parallelism.tp", 0, "(value from --set jobs.gpt.parallelism.tp=3)");
  f = load_error("ov.yaml", kJobs, {{"jobs.0.weight", "0"}});
  expect_error(f, "jobs[0].weight", 0, "weight 0 is out of range");
  EXPECT_NE(f.what.find("(value from --set jobs.0.weight=0)"), std::string::npos) << f.what;
  // An unknown job names the jobs there are.
  f = load_error("ov.yaml", kJobs, {{"jobs.roberta.iterations", "2"}});
  expect_error(f, "jobs.roberta.iterations", 0, "no element 'roberta' in 'jobs' (expected an index or a name: "
                                                "0 (bert), 1 (gpt))");
}

TEST(ScenarioJobs, OverridingJobOnAJobsScenarioIsAClearError) {
  Failure f = load_error("ov.yaml", kJobs, {{"job.iterations", "3"}});
  expect_error(f, "job.iterations", 0,
               "the scenario has jobs: (several jobs), not job: (expected jobs.INDEX.KEY or jobs.NAME.KEY, "
               "e.g. jobs.0.iterations; jobs: 0 (bert), 1 (gpt))");
  // And the reverse.
  f = load_error("ov1.yaml", kOneJob, {{"jobs.0.iterations", "3"}});
  expect_error(f, "jobs.0.iterations", 0, "the scenario has job: (one job), not jobs: (expected job.KEY");
}

TEST(ScenarioJobs, CodeBuiltScenariosAreChecked) {
  Scenario s = load_scenario(write_temp("code.yaml", kJobs));
  s.jobs[1].name = "bert";
  try {
    validate_job(s);
    ADD_FAILURE() << "duplicate name accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "jobs[1].name");
  }
  s.jobs[1].name = "gpt";
  s.jobs[1].weight = -2;
  try {
    validate_job(s);
    ADD_FAILURE() << "negative weight accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "jobs[1].weight");
  }
  s.jobs[1].weight = 1;
  s.jobs[1].par.pp = 100;
  try {
    validate_job(s);
    ADD_FAILURE() << "pp > layers accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "jobs[1].parallelism.pp");
  }
}

TEST(ScenarioJobs, JsonRoundTripsJobs) {
  const Scenario s = load_scenario(write_temp("json.yaml", kJobs));
  const nlohmann::json j = scenario_to_json(s);
  ASSERT_TRUE(j.contains("jobs"));
  ASSERT_EQ(j["jobs"].size(), 2u);
  EXPECT_EQ(j["jobs"][1]["name"], "gpt");
  EXPECT_EQ(j["jobs"][1]["weight"], 2.5);
  const Scenario back = scenario_from_json(nlohmann::json::parse(j.dump()), "x.json");
  ASSERT_EQ(back.jobs.size(), 2u);
  EXPECT_EQ(back.jobs[0].name, "bert");
  EXPECT_DOUBLE_EQ(back.jobs[1].weight, 2.5);
  EXPECT_EQ(back.jobs[1].par.tp, 2);
  EXPECT_EQ(back.jobs[0].iterations, 3);
  EXPECT_EQ(scenario_to_json(back).dump(), j.dump());
  // A one-job scenario writes no "jobs" key.
  const Scenario one = load_scenario(write_temp("json1.yaml", kOneJob));
  EXPECT_FALSE(scenario_to_json(one).contains("jobs"));
  EXPECT_FALSE(names_jobs(scenario_from_json(scenario_to_json(one), "y.json")));
  // A bad entry names its path.
  nlohmann::json bad = j;
  bad["jobs"][1].erase("weight");
  try {
    scenario_from_json(bad, "x.json");
    ADD_FAILURE() << "missing weight accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "jobs.1.weight");
  }
}
