// Result files: exact comm.csv header and row layout, result.json keys, Chrome trace structure, atomic writes.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/errors.hpp"
#include "sim/report/outputs.hpp"
#include "sim/report/placement_json.hpp"
#include "sim/workload/plan.hpp"

namespace {

hulk::Scenario tiny_scenario() {
  hulk::Scenario s;
  s.name = "tiny";
  s.seed = 42;
  s.platform.regions = {"east", "west"};
  for (int i = 0; i < 2; ++i) {
    hulk::HostSpec h;
    h.name = i == 0 ? "alpha" : "beta";
    h.region = i;
    h.gpus = 2;
    s.platform.hosts.push_back(h);
  }
  s.only_job().par = {1, 1, 2};
  s.only_job().iterations = 1;
  return s;
}

hulk::SimResult tiny_result() {
  hulk::SimResult r;
  r.iteration_time_s = 1.5;
  r.total_time_s = 1.5;
  r.compute_s = 1.0;
  r.comm_pp_s = 0.25;
  r.bubble_s = 0.25;
  r.bytes.inter_region = 2048;
  r.peak_memory_bytes = {1e9, 2e9};
  r.placement.gpu_of_rank = {{0, 1}, {1, 0}};
  r.messages = 1;
  hulk::CommEvent e;
  e.kind = "pp";
  e.collective = "pp/s0d0t0/mb0/a";
  e.src_rank = 0;
  e.dst_rank = 1;
  e.src_host = 0;
  e.dst_host = 1;
  e.bytes = 2048;
  e.start_s = 0.123456789012;
  e.end_s = 0.5;
  r.events.push_back(e);
  r.spans.push_back({1, "fwd mb0", "compute", 0.5, 0.75});
  return r;
}

}  // namespace

TEST(Outputs, CommCsvHeaderAndRows) {
  const std::string csv = hulk::comm_csv(tiny_scenario(), tiny_result());
  std::istringstream in(csv);
  std::string header, row, extra;
  std::getline(in, header);
  std::getline(in, row);
  EXPECT_EQ(header, "iteration,kind,collective,src_rank,dst_rank,src_host,dst_host,bytes,start_s,end_s");
  EXPECT_EQ(row, "0,pp,pp/s0d0t0/mb0/a,0,1,alpha,beta,2048,0.123456789012,0.5");
  EXPECT_FALSE(std::getline(in, extra));
}

TEST(Outputs, ResultJsonKeys) {
  nlohmann::json j = hulk::result_to_json(tiny_scenario(), tiny_result());
  for (const char* k : {"scenario", "seed", "iterations", "iteration_time_s", "total_time_s", "compute_s", "comm_s",
                        "bubble_s", "bytes", "peak_memory_bytes", "messages", "placement"})
    EXPECT_TRUE(j.contains(k)) << k;
  EXPECT_EQ(j["scenario"], "tiny");
  EXPECT_DOUBLE_EQ(j["comm_s"]["pp"].get<double>(), 0.25);
  EXPECT_DOUBLE_EQ(j["bytes"]["inter_region"].get<double>(), 2048);
  ASSERT_EQ(j["peak_memory_bytes"].size(), 2u);
  EXPECT_EQ(j["peak_memory_bytes"][1]["host"], "beta");
  EXPECT_EQ(j["peak_memory_bytes"][0]["slot"], 1);
  EXPECT_EQ(j["placement"]["ranks"].size(), 2u);
}

TEST(Outputs, EveryRankCarriesThePlansCoordinates) {
  // dp 2 x tp 2 x pp 2 on 2 hosts of 4 GPUs: rank r on host r / 4, slot r % 4.
  hulk::Scenario s = tiny_scenario();
  for (auto& h : s.platform.hosts) h.gpus = 4;
  s.only_job().par = {2, 2, 2};
  hulk::SimResult r;
  for (int rank = 0; rank < 8; ++rank) {
    r.placement.gpu_of_rank.push_back({rank / 4, rank % 4});
    r.peak_memory_bytes.push_back(1e9);
  }
  const nlohmann::json j = hulk::result_to_json(s, r);
  const hulk::ParallelPlan plan(s.only_job().par);
  for (int rank = 0; rank < 8; ++rank) {
    const hulk::RankCoord c = plan.coord_of(rank);
    for (const nlohmann::json* e : {&j["placement"]["ranks"][rank], &j["peak_memory_bytes"][rank]}) {
      EXPECT_EQ((*e)["rank"], rank);
      EXPECT_EQ((*e)["stage"], c.pp);
      EXPECT_EQ((*e)["replica"], c.dp);
      EXPECT_EQ((*e)["tp_index"], c.tp);
      EXPECT_EQ((*e)["host"], rank < 4 ? "alpha" : "beta");
      EXPECT_FALSE(e->contains("job"));  // one job
    }
  }
  // Megatron order, spelled out: tp varies fastest, then the replica, then the stage.
  EXPECT_EQ(j["placement"]["ranks"][5]["stage"], 1);
  EXPECT_EQ(j["placement"]["ranks"][5]["replica"], 0);
  EXPECT_EQ(j["placement"]["ranks"][5]["tp_index"], 1);
  // Read back: the coordinates agree; a file without them (the earlier shape) reads the same; one that contradicts
  // its rank is refused naming the key.
  EXPECT_EQ(hulk::placement_from_json(s, j, "r.json").gpu_of_rank, r.placement.gpu_of_rank);
  nlohmann::json bare = j["placement"];
  for (auto& e : bare["ranks"]) e.erase("stage"), e.erase("replica"), e.erase("tp_index"), e.erase("region");
  EXPECT_EQ(hulk::placement_from_json(s, bare, "p.json").gpu_of_rank, r.placement.gpu_of_rank);
  nlohmann::json wrong = j["placement"];
  wrong["ranks"][5]["replica"] = 1;
  try {
    hulk::placement_from_json(s, wrong, "p.json");
    ADD_FAILURE() << "a contradicting replica was read";
  } catch (const hulk::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("ranks[5].replica"), std::string::npos) << e.what();
  }
}

TEST(Outputs, MfuIsModelFlopsOverThePeakOfTheGpusUsed) {
  hulk::Scenario s = tiny_scenario();
  for (auto& h : s.platform.hosts) h.gpu.fp16_flops = 100e12;
  s.only_job().model = {"m", 4, 1024, 16, 512, 32000};
  s.only_job().global_batch = 8;
  s.only_job().micro_batch = 2;
  s.only_job().par = {1, 1, 2};
  hulk::SimResult r = tiny_result();
  // 6 x parameters-ish x tokens, from the cost model's per-layer flops: 3 passes x (24 b s h^2 + 4 b s^2 h) per layer
  // per micro-batch, + the logits (2 b s h V) on the last stage; 4 micro-batches of b = 2.
  const double b = 2, sq = 512, h = 1024, V = 32000;
  const double per_mb = 4 * (24 * b * sq * h * h + 4 * b * sq * sq * h) + 2 * b * sq * h * V;
  const double flops = 3 * per_mb * 4;
  EXPECT_NEAR(hulk::model_flops_per_iteration(s.only_job()) / flops, 1.0, 1e-12);
  const nlohmann::json j = hulk::result_to_json(s, r);
  EXPECT_NEAR(j["mfu"].get<double>() / (flops / r.iteration_time_s / (2 * 100e12)), 1.0, 1e-12);
  EXPECT_NEAR(j["jobs"][0]["mfu"].get<double>(), j["mfu"].get<double>(), 1e-15);
  EXPECT_NEAR(j["compute_time_share"].get<double>(), r.compute_s / r.iteration_time_s, 1e-15);
  // Recomputation is not model work: the same count with full recomputation.
  const double without = hulk::model_flops_per_iteration(s.only_job());
  s.only_job().recompute = "full";
  EXPECT_EQ(hulk::model_flops_per_iteration(s.only_job()), without);
}

TEST(Outputs, ChromeTraceOneTrackPerGpu) {
  nlohmann::json t = hulk::chrome_trace(tiny_scenario(), tiny_result());
  ASSERT_TRUE(t["traceEvents"].is_array());
  int process_names = 0, thread_names = 0, spans = 0;
  for (const auto& e : t["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "process_name") ++process_names;
    if (e["ph"] == "M" && e["name"] == "thread_name") {
      ++thread_names;
      if (e["pid"] == 1) EXPECT_EQ(e["args"]["name"], "GPU 0 (rank 1)");
    }
    if (e["ph"] == "X") {
      ++spans;
      EXPECT_EQ(e["pid"], 1);  // host index of rank 1
      EXPECT_EQ(e["tid"], 0);  // its GPU slot
      EXPECT_DOUBLE_EQ(e["ts"].get<double>(), 0.5e6);
      EXPECT_DOUBLE_EQ(e["dur"].get<double>(), 0.25e6);
    }
  }
  EXPECT_EQ(process_names, 2);
  EXPECT_EQ(thread_names, 2);
  EXPECT_EQ(spans, 1);
}

TEST(Outputs, StreamedTraceHasTheBytesOfTheWholeDocument) {
  hulk::SimResult r = tiny_result();
  r.spans.push_back({0, "tp allreduce", "tp", 0.75, 1.0 / 3.0 + 1.0});
  r.spans.push_back({1, "bwd \"mb0\"", "compute", 1e-9, 2.5});  // quotes are escaped the same way
  for (int spans : {0, 1, 3}) {
    hulk::SimResult part = r;
    part.spans.resize(spans);
    std::ostringstream streamed;
    hulk::ChromeTraceWriter writer(streamed, tiny_scenario(), part.placement);
    for (const hulk::Span& s : part.spans) writer.add(s);
    writer.finish();
    EXPECT_EQ(streamed.str(), hulk::chrome_trace(tiny_scenario(), part).dump() + "\n") << spans << " spans";
  }
}

TEST(Outputs, UnwritableTargetIsInputErrorAndLeavesNothing) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("hulk_outputs_ro_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  // A regular file where the output folder should be: creating the folder fails.
  std::ofstream(dir / "blocker") << "x";
  EXPECT_THROW(hulk::write_file_atomic((dir / "blocker" / "result.json").string(), "{}"), hulk::InputError);
  int entries = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    (void)e;
    ++entries;
  }
  EXPECT_EQ(entries, 1);
  fs::remove_all(dir);
}
