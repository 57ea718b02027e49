// Result files of several jobs: the placement file (one rank list per job, read back by name; bad files are one
// error naming the key), comm.csv's job column, result.json's per-job keys, the trace's job track groups.
#include <gtest/gtest.h>

#include <string>

#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/report/outputs.hpp"
#include "sim/report/placement_json.hpp"

namespace {

/** Two hosts of 2 GPUs in two regions; job "a" (pp 2) and job "b" (dp 2). */
hulk::Scenario two_jobs() {
  hulk::Scenario s;
  s.name = "two";
  s.file = "two.yaml";
  s.platform.regions = {"east", "west"};
  for (int i = 0; i < 2; ++i) {
    hulk::HostSpec h;
    h.name = i == 0 ? "alpha" : "beta";
    h.region = i;
    h.gpus = 2;
    s.platform.hosts.push_back(h);
  }
  hulk::JobSpec a, b;
  a.name = "a";
  a.par = {1, 1, 2};
  b.name = "b";
  b.weight = 3;
  b.par = {2, 1, 1};
  s.jobs = {a, b};
  return s;
}

hulk::Placement crossed() {
  hulk::Placement p;
  p.gpu_of_rank = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};  // a: alpha0, beta0; b: alpha1, beta1
  return p;
}

std::string error_of(const hulk::Scenario& s, const nlohmann::json& doc) {
  try {
    hulk::placement_from_json(s, doc, "p.json");
  } catch (const hulk::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(MultiJobOutputs, PlacementFileHoldsOneRankListPerJobAndReadsBack) {
  const hulk::Scenario s = two_jobs();
  const nlohmann::json doc = hulk::placement_to_json(s, crossed());
  ASSERT_EQ(doc["jobs"].size(), 2u);
  EXPECT_EQ(doc["jobs"][1]["name"], "b");
  EXPECT_EQ(doc["jobs"][1]["ranks"][0]["rank"], 0);  // ranks numbered inside each job
  EXPECT_EQ(doc["jobs"][1]["ranks"][1]["host"], "beta");
  EXPECT_EQ(hulk::placement_from_json(s, doc, "p.json").gpu_of_rank, crossed().gpu_of_rank);
  // Jobs are found by name, not by position.
  nlohmann::json swapped = doc;
  std::swap(swapped["jobs"][0], swapped["jobs"][1]);
  EXPECT_EQ(hulk::placement_from_json(s, swapped, "p.json").gpu_of_rank, crossed().gpu_of_rank);
}

TEST(MultiJobOutputs, BadPlacementFilesNameTheKey) {
  const hulk::Scenario s = two_jobs();
  const nlohmann::json good = hulk::placement_to_json(s, crossed());
  nlohmann::json missing = good;
  missing["jobs"].erase(1);
  EXPECT_NE(error_of(s, missing).find("no entry for job 'b'"), std::string::npos) << error_of(s, missing);
  nlohmann::json twice = good;
  twice["jobs"][1]["name"] = "a";
  EXPECT_NE(error_of(s, twice).find("appears twice"), std::string::npos) << error_of(s, twice);
  nlohmann::json shared = good;
  shared["jobs"][1]["ranks"][0]["host"] = "alpha";
  shared["jobs"][1]["ranks"][0]["slot"] = 0;  // a's rank 0 is there
  EXPECT_NE(error_of(s, shared).find("given to two ranks"), std::string::npos) << error_of(s, shared);
  EXPECT_NE(error_of(s, shared).find("job 'b'"), std::string::npos);
  nlohmann::json one_job_file = hulk::placement_to_json(hulk::job_view(s, 0), hulk::job_slice(s, crossed(), 0));
  EXPECT_NE(error_of(s, one_job_file).find("p.json"), std::string::npos);
  EXPECT_NE(error_of(s, one_job_file).find("jobs"), std::string::npos) << error_of(s, one_job_file);
  nlohmann::json short_list = good;
  short_list["jobs"][0]["ranks"].erase(1);
  EXPECT_NE(error_of(s, short_list).find("jobs[0].ranks"), std::string::npos) << error_of(s, short_list);
  // Written for another shape of the job: the same rank count would be read in another layout.
  nlohmann::json other_shape = good;
  std::swap(other_shape["jobs"][0]["parallelism"]["dp"], other_shape["jobs"][0]["parallelism"]["pp"]);
  if (other_shape["jobs"][0]["parallelism"] == good["jobs"][0]["parallelism"])
    other_shape["jobs"][0]["parallelism"]["tp"] = 7;
  EXPECT_NE(error_of(s, other_shape).find("jobs[0].parallelism"), std::string::npos) << error_of(s, other_shape);
  EXPECT_NE(error_of(s, other_shape).find("another layout"), std::string::npos) << error_of(s, other_shape);
}

TEST(MultiJobOutputs, CommCsvHasAJobColumnOnlyWithSeveralJobs) {
  const hulk::Scenario s = two_jobs();
  EXPECT_EQ(hulk::comm_csv_header(s), std::string("job,") + hulk::comm_csv_header());
  EXPECT_EQ(hulk::comm_csv_header(hulk::job_view(s, 0)), hulk::comm_csv_header());
  hulk::CommEvent e;
  e.job = 1;
  e.kind = "dp";
  e.collective = "dp/s0t0";
  e.src_rank = 0;
  e.dst_rank = 1;
  e.src_host = 0;
  e.dst_host = 1;
  e.bytes = 8;
  std::string row;
  hulk::append_comm_csv_row(row, s, e);
  EXPECT_EQ(row, "b,0,dp,dp/s0t0,0,1,alpha,beta,8,0,0\n");
}

TEST(MultiJobOutputs, ResultJsonHasEachJobAndTheObjective) {
  const hulk::Scenario s = two_jobs();
  hulk::SimResult a, b, all;
  a.placement = hulk::job_slice(s, crossed(), 0);
  a.iteration_time_s = 2;
  a.peak_memory_bytes = {1, 1};
  b.placement = hulk::job_slice(s, crossed(), 1);
  b.iteration_time_s = 1;
  b.peak_memory_bytes = {1, 1};
  all.placement = crossed();
  all.jobs = {a, b};
  all.objective_s = hulk::weighted_objective(s, {2, 1});
  all.makespan_s = 2;
  const nlohmann::json j = hulk::result_to_json(s, all);
  EXPECT_DOUBLE_EQ(j["objective_s"].get<double>(), (1 * 2.0 + 3 * 1.0) / 4);
  EXPECT_EQ(j["gpus_used"], 4);
  EXPECT_EQ(j["jobs"][0]["name"], "a");
  EXPECT_EQ(j["jobs"][1]["weight"], 3.0);
  EXPECT_EQ(j["jobs"][1]["placement"]["ranks"].size(), 2u);
  EXPECT_FALSE(j.contains("iteration_time_s"));  // ambiguous with several jobs: objective_s and per job
  // Each rank names its job beside its coordinates (the job's own rank order), in the placement and the memory.
  for (int k = 0; k < 2; ++k)
    for (const char* part : {"placement", "peak_memory_bytes"}) {
      const nlohmann::json& ranks = std::string(part) == "placement" ? j["placement"]["jobs"][k]["ranks"]
                                                                    : j["jobs"][k]["peak_memory_bytes"];
      ASSERT_EQ(ranks.size(), 2u) << part;
      for (const auto& e : ranks) {
        EXPECT_EQ(e["job"], k == 0 ? "a" : "b") << part;
        EXPECT_TRUE(e.contains("stage") && e.contains("replica") && e.contains("tp_index")) << e.dump();
      }
    }
  nlohmann::json misnamed = j;
  misnamed["placement"]["jobs"][1]["ranks"][0]["job"] = "a";
  EXPECT_THROW(hulk::placement_from_json(s, misnamed, "r.json"), hulk::InputError);
  EXPECT_EQ(hulk::placement_from_json(s, j, "r.json").gpu_of_rank, crossed().gpu_of_rank);
  // One job: today's keys and the several-job ones, consistent.
  const hulk::Scenario one = hulk::job_view(s, 0);
  const nlohmann::json k = hulk::result_to_json(one, a);
  EXPECT_EQ(k["iteration_time_s"], k["objective_s"]);
  EXPECT_EQ(k["jobs"][0]["iteration_time_s"], k["iteration_time_s"]);
}

TEST(MultiJobOutputs, TraceGroupsEachJobsTracks) {
  const hulk::Scenario s = two_jobs();
  hulk::SimResult r;
  r.placement = crossed();
  r.spans = {{2, "fwd mb0", "compute", 0.0, 1.0}};  // job b's rank 0, on alpha slot 1
  const nlohmann::json t = hulk::chrome_trace(s, r);
  bool named = false;
  for (const auto& e : t["traceEvents"])
    if (e["name"] == "process_name" && e["args"]["name"] == "b: alpha") named = true;
  EXPECT_TRUE(named);
  const nlohmann::json& span = t["traceEvents"].back();
  EXPECT_EQ(span["pid"], 1 * 2 + 0);  // job 1, host 0
  EXPECT_EQ(span["tid"], 1);
}
