// `hulk gnn gen-data`, `hulk gnn train` and `hulk gnn eval`: the learned placer's data, training and held-out evaluation.
// Torch runs only in `train` (this process never forks afterwards) and inside child processes elsewhere.
#include <algorithm>
#include <map>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>

#include "tools/cli/option_ranges.hpp"
#include "tools/cli/job_range.hpp"
#include "tools/cli/commands.hpp"
#include "sim/evaluate/pipeline_memo.hpp"
#include "sim/methods/gnn_method.hpp"
#include "tools/cli/shard.hpp"
#include "gnn/dataset.hpp"
#include "gnn/format_version.hpp"
#include "gnn/sampled_decode.hpp"
#include "gnn/train_command.hpp"
#include "tools/cli/gnn_plugin_loader.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/seeding.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/report/outputs.hpp"
#include "sim/lab/held_out_eval.hpp"
#include "sim/lab/labelling.hpp"
#include "sim/methods/method_registry.hpp"
#include "sim/scenario/scenario_json.hpp"
#include "sim/core/subprocess.hpp"

namespace hulk::cli {
namespace {

namespace fs = std::filesystem;

struct GenArgs {
  int count = 100;
  std::uint64_t seed = 1;
  std::string out, shard;
  long budget = 5000;
  int max_gpus = 128;
  std::string jobs;          ///< "" = one job per cluster; "N" or "MIN-MAX": clusters shared by several jobs
  std::string label = "simgrid";  ///< simgrid (SimGrid-checked search) | evaluator (annealing on the evaluator)
  std::string wan = "pair";       ///< pair | host | mixed: the sampled platforms' WAN capacity model
  int min_jobs = 0, max_jobs = 0;
};

/** Parses --jobs (N or MIN-MAX, 2..8) into args.min_jobs/max_jobs. */
void parse_jobs_option(GenArgs& args) {
  if (args.jobs.empty()) return;
  const JobRange r = parse_job_range(args.jobs);
  args.min_jobs = r.min;
  args.max_jobs = r.max;
  check_jobs_fit_gpus(r, args.max_gpus);
}

/** One labelled sample (sim/lab/labelling.hpp) in the data set's format. */
gnn::Sample make_sample(int index, std::uint64_t seed, const GenArgs& args) {
  LabelOptions options;
  options.budget = args.budget;
  options.max_gpus = args.max_gpus;
  options.simgrid = args.label == "simgrid";
  options.wan = args.wan;
  const std::uint64_t sample_seed = gnn::sample_seed(seed, index);
  if (args.max_jobs >= 2)
    options.jobs = args.min_jobs + static_cast<int>(component_seed(sample_seed, "gen-data#jobs") %
                                                    (args.max_jobs - args.min_jobs + 1));
  LabelledSample labelled = make_labelled_sample(sample_seed, options);
  gnn::Sample sample;
  sample.index = index;
  sample.scenario = std::move(labelled.scenario);
  sample.traffic = std::move(labelled.traffic);
  sample.label = std::move(labelled.label);
  sample.times_s = std::move(labelled.times_s);
  return sample;
}

/** The value of `--flag V` in a manifest's generator command line ("" if absent). */
std::string generator_option(const std::string& generator, const std::string& flag) {
  std::stringstream ss(generator);
  std::string word;
  while (ss >> word)
    if (word == flag && ss >> word) return word;
  return "";
}

/** "" if an existing data set was generated with the same options, else the option that changed and both values:
 *  samples made with another budget or platform size must not be mixed with new ones. */
std::string changed_generation_option(const gnn::Manifest& old, const gnn::Manifest& now) {
  if (old.count != now.count)
    return "--count (was " + std::to_string(old.count) + ", now " + std::to_string(now.count) + ")";
  if (old.seed != now.seed)
    return "--seed (was " + std::to_string(old.seed) + ", now " + std::to_string(now.seed) + ")";
  for (const char* flag : {"--budget", "--max-gpus", "--jobs", "--label", "--wan"}) {
    std::string was = generator_option(old.generator, flag), is = generator_option(now.generator, flag);
    if (std::string(flag) == "--label" || std::string(flag) == "--wan") {  // absent = the default
      const char* fallback = std::string(flag) == "--label" ? "simgrid" : "pair";
      if (was.empty()) was = fallback;
      if (is.empty()) is = fallback;
    }
    if (was != is) return std::string(flag) + " (was " + (was.empty() ? "unknown" : was) + ", now " + is + ")";
  }
  return "";
}

void run_gen_data(GenArgs args) {
  if (args.count < 1) throw InputError("", 0, "--count", "expected a positive number of samples");
  if (args.out.empty()) throw InputError("", 0, "--out", "an output folder is required");
  parse_jobs_option(args);
  if (args.label != "simgrid" && args.label != "evaluator")
    throw InputError("", 0, "--label", "expected simgrid or evaluator, got '" + args.label + "'");
  if (args.wan != "pair" && args.wan != "host" && args.wan != "mixed")
    throw InputError("", 0, "--wan", "expected pair, host or mixed, got '" + args.wan + "'");
  const Shard shard = parse_shard(args.shard);
  fs::create_directories(args.out);
  gnn::Manifest manifest;
  manifest.format_version = gnn::kDatasetFormatVersion;
  manifest.count = args.count;
  manifest.seed = args.seed;
  manifest.generator = "hulk gnn gen-data --count " + std::to_string(args.count) + " --seed " +
                       std::to_string(args.seed) + " --budget " + std::to_string(args.budget) + " --max-gpus " +
                       std::to_string(args.max_gpus) + (args.jobs.empty() ? "" : " --jobs " + args.jobs) +
                       (args.label == "simgrid" ? "" : " --label " + args.label) +
                       (args.wan == "pair" ? "" : " --wan " + args.wan);
  if (fs::exists(args.out + "/manifest.json")) {
    const std::string changed = changed_generation_option(gnn::read_manifest(args.out), manifest);
    if (!changed.empty())
      throw InputError(args.out + "/manifest.json", 0, "",
                       "the folder holds a data set generated with other options: " + changed +
                           "; use another --out");
  } else {
    gnn::write_manifest(args.out, manifest);
  }
  int mine = 0, done = 0, failed = 0;
  for (int i = 0; i < args.count; ++i)
    if (shard.owns(i)) ++mine, done += gnn::sample_exists(args.out, i);
  std::cerr << "gen-data: " << mine << " samples in this shard, " << done << " already present\n";
  const auto t0 = std::chrono::steady_clock::now();
  int made = 0;
  for (int i = 0; i < args.count && !interrupt_requested(); ++i) {
    if (!shard.owns(i) || gnn::sample_exists(args.out, i)) continue;
    try {
      gnn::Sample sample = make_sample(i, args.seed, args);
      if (interrupt_requested()) break;  // a label cut short by the interrupt is not a sample
      gnn::write_sample(args.out, sample);  // atomic: a killed run leaves no half sample
      ++made;
    } catch (const Interrupted&) {
      break;
    } catch (const InputError& e) {
      if (interrupt_requested()) break;  // failed because of the interrupt: not a skipped sample
      ++failed;  // a sampled job that cannot be placed: marked skipped, reported
      gnn::write_skip_marker(args.out, i, e.what());
      std::cerr << "gen-data: sample " << i << " skipped: " << e.what() << "\n";
      continue;
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::fprintf(stderr, "gen-data: [%d/%d] sample %d done, %.1f samples/min\n", done + made, mine, i,
                 60.0 * made / std::max(s, 1e-9));
  }
  std::cerr << "gen-data: " << made << " new samples, " << failed << " skipped\n";
  if (!interrupt_requested()) {
    std::vector<std::map<std::string, double>> times;
    for (const gnn::Sample& s : gnn::load_dataset(args.out, true)) times.push_back(s.times_s);
    std::cerr << "gen-data: " << gap_distribution_text(times);
  }
  if (interrupt_requested())
    throw Interrupted(std::to_string(done + made) + " finished samples kept in " + args.out + "; rerun to resume");
}

void run_train(const gnn::TrainCommand& args) {
  if (args.data_dirs.empty() || args.model_out.empty()) throw InputError("", 0, "--data/--out", "both are required");
  for (std::size_t i = 0; i < args.data_dirs.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (fs::weakly_canonical(args.data_dirs[i]) == fs::weakly_canonical(args.data_dirs[j]))  // ./d/ is d
        throw InputError("", 0, "--data", "'" + args.data_dirs[i] + "' is given twice (its samples would count twice)");
  // The analytic evaluator judges self-imitation targets and the validation gap (SimGrid per epoch would need
  // forks after torch started). One Evaluator per scenario: its construction (routes, schedule) is the costly part.
  std::map<const Scenario*, std::unique_ptr<Evaluator>> evaluators;
  auto evaluator = [&evaluators](const Scenario& s, const Placement& p) {
    auto& e = evaluators[&s];
    if (!e) e = std::make_unique<Evaluator>(s);
    return e->iteration_time_s(p);
  };
  gnn::TrainCommand command = args;
  command.interrupted = [] { return interrupt_requested(); };  // a signal before training started stops it too
  const gnn::TrainSummary r = gnn_plugin().train(command, evaluator, &std::cerr);
  if (r.interrupted) {
    // Name what is on disk: the checkpoint of the last finished epoch, or nothing when none finished.
    const std::string ckpt = args.model_out + ".ckpt";
    if (!fs::exists(ckpt)) throw Interrupted("no epoch finished: nothing written");
    throw Interrupted("the finished epochs are kept in " + ckpt + " (the same command resumes from it); " +
                      args.model_out + " is written when training ends");
  }
  std::cerr << "train: " << r.train_samples << " training (" << r.synthetic_samples << " synthetic) and "
            << r.val_samples << " validation samples, " << r.skipped_samples << " skipped\n";
}

struct EvalArgs {
  std::string data, model, out;
  int candidates = gnn::SamplingOptions{}.candidates;
};

/** Held-out evaluation: GNN placements (all computed in one torch child), then each simulated by SimGrid. */
void run_gnn_eval(const EvalArgs& args) {
  std::vector<gnn::Sample> data = gnn::load_dataset(args.data);
  for (const auto& d : data)
    if (!d.times_s.count("greedy") || !d.times_s.count("search"))
      throw InputError(gnn::sample_path(args.data, d.index), 0, "times_s",
                       "no SimGrid greedy/search times (an evaluator-labelled set?); gnn-eval needs gen-data "
                       "--label simgrid");
  const std::string model = model_or_committed(args.model);
  if (args.candidates < 1) throw InputError("", 0, "--candidates", "expected at least 1 decoded candidate");
  gnn::SamplingOptions sampling;
  sampling.candidates = args.candidates;
  gnn_plugin();  // loaded here once (children inherit it), outside the timed placements
  nlohmann::json placed = run_in_child([&]() {
    const std::unique_ptr<Placer> placer = gnn_plugin().make_placer(model, sampling);
    nlohmann::json out = nlohmann::json::array();
    for (const auto& d : data) {
      PipelineMemo::process().clear();  // timed cold, as in a process of its own
      const auto t0 = std::chrono::steady_clock::now();
      try {
        const Placement p = anneal_learned_placement(d.scenario, placer->place(d.scenario), kLearnedAnnealEvaluations);
        const double ms = 1e3 * std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        out.push_back({{"ok", true}, {"placement", placement_slots_to_json(p)}, {"ms", ms}});
      } catch (const InputError& e) {
        out.push_back({{"ok", false}, {"error", e.what()}});
      }
    }
    return out;
  });
  std::vector<HeldOutCase> cases;
  std::vector<LearnedAnswer> answers;
  for (std::size_t i = 0; i < data.size(); ++i) {
    cases.push_back({data[i].index, std::move(data[i].scenario), data[i].times_s});
    LearnedAnswer a;
    a.ok = placed[i]["ok"].get<bool>();
    if (a.ok) {
      a.placement = placement_slots_from_json(placed[i]["placement"], "<gnn>", "placement");
      a.inference_ms = placed[i]["ms"].get<double>();
    } else {
      a.error = placed[i]["error"].get<std::string>();
    }
    answers.push_back(std::move(a));
  }
  const HeldOutReport report = evaluate_held_out(cases, answers, &std::cerr);
  if (report.interrupted) {  // no summary of part of the set; the finished rows kept beside --out
    const std::string kept = args.out.empty() ? std::string() : args.out + ".partial";
    if (!kept.empty()) write_file_atomic(kept, held_out_csv(report));
    throw Interrupted(std::to_string(report.rows.size()) + " of " + std::to_string(report.total) +
                      " samples simulated" + (kept.empty() ? "" : ", their rows in " + kept) +
                      " (no summary); a rerun starts over");
  }
  const HeldOutFigures f = held_out_figures(report);
  if (f.placed == 0) throw InputError(args.data, 0, "", "no sample could be placed by the model");
  const int rank_budget = sampling.rank_budget;
  std::printf("gnn decodes up to %d candidates%s (fewer for jobs of more than %d ranks: at most %d candidates x ranks "
              "per view), and greedy's placement is one more; then the score-guided host exchanges and the short "
              "annealing (jobs of <= %d ranks), as the gnn method\n",
              args.candidates, args.candidates == 1 ? " (the argmax decode)" : "",
              std::max(1, rank_budget / std::max(1, args.candidates)), rank_budget, kLearnedAnnealMaxRanks);
  std::fputs(held_out_summary(f, report.total, gnn::read_manifest(args.data).generator).c_str(), stdout);
  if (!args.out.empty()) {
    write_file_atomic(args.out, held_out_csv(report));
    std::error_code stale;
    fs::remove(args.out + ".partial", stale);  // of an earlier, interrupted run
  }
}

}  // namespace

void register_gnn_commands(CLI::App& app) {
  auto* gen = app.add_subcommand("gen-data", "Generate GNN training data: sampled clusters/jobs, traces, labels");
  gen->footer("Example:\n  hulk gnn gen-data --count 400 --seed 1 --budget 3000 --max-gpus 64 --out data/train");
  auto g = std::make_shared<GenArgs>();
  gen->add_option("--count", g->count, "number of samples")->capture_default_str();
  gen->add_option("--seed", g->seed, "data seed")->capture_default_str()
      ->check(seed_check());
  gen->add_option("--out", g->out, "data set folder")->required();
  gen->add_option("--shard", g->shard,
                  "i/n: generate only the samples with index % n == i (0-based i, e.g. "
                  "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT)");
  gen->add_option("--budget", g->budget, "search evaluations per label")->capture_default_str()
      ->check(budget_range());
  gen->add_option("--max-gpus", g->max_gpus, "largest sampled platform (GPUs)")
      ->capture_default_str()
      ->check(sampled_gpus_range());
  gen->add_option("--label", g->label,
                  "simgrid: the SimGrid-checked search labels, SimGrid times; evaluator: the annealing search over "
                  "the analytic evaluator, no SimGrid (estimates stored as greedy_est/search_est; far faster)")
      ->capture_default_str();
  gen->add_option("--wan", g->wan,
                  "WAN capacity model of the sampled platforms: pair (one pipe per region pair), host (each host's "
                  "own cap) or mixed (drawn per sample)")
      ->capture_default_str();
  gen->add_option("--jobs", g->jobs,
                  "N or MIN-MAX (2..8): clusters shared by several jobs; each sample is one job on the GPUs the "
                  "joint search left it (default: one job per cluster)");
  gen->callback([g] { run_gen_data(*g); });

  auto* train = app.add_subcommand("train", "Train the GNN placer on a data set (checkpoints, resumes)");
  train->footer("Example:\n  hulk gnn train --data data/train --out models/my-gnn.pt --epochs 20 --seed 1");
  auto t = std::make_shared<gnn::TrainCommand>();
  train->add_option("--data", t->data_dirs, "data set folder (repeat to train on several)")->required();
  train->add_option("--out", t->model_out, "model file to write")->required();
  train->add_option("--epochs", t->epochs, "epochs")->capture_default_str()->check(number_range(0, 100000));
  train->add_option("--seed", t->seed, "training seed")->capture_default_str()
      ->check(seed_check());
  train->add_flag("--allow-partial", t->allow_partial, "train on the samples present (an unfinished gen-data)");
  train->add_option("--synthetic", t->synthetic,
                    "extra sampled scenarios labelled with greedy (self-imitation only, never validation)")
      ->capture_default_str();
  train->add_option("--synthetic-max-gpus", t->synthetic_max_gpus, "largest synthetic platform (GPUs)")
      ->capture_default_str()
      ->check(sampled_gpus_range());
  train->add_option("--reinforce", t->reinforce,
                    "K >= 2: add a policy-gradient term (K sampled decodes per sample and step, reward -log of the "
                    "evaluator's time, mean baseline) to the imitation loss; 0 = off")
      ->capture_default_str();
  train->add_option("--reinforce-weight", t->reinforce_weight, "scale of the policy-gradient term")
      ->capture_default_str()
      ->check(number_range(0.0, 1e6));  // inf and nan made the loss nan and the model useless, without a word
  train->add_option("--init", t->init, "start from this model file's weights (fine-tuning)");
  train->add_option("--validation-candidates", t->validation_candidates,
                    "decodes per validation sample of the gap that selects the written epoch (1 = the argmax "
                    "decode alone: the model's own answer, gnn-families' model-only)")
      ->capture_default_str()
      ->check(number_range(1, 100000));
  train->callback([t] { run_train(*t); });

  auto* eval = app.add_subcommand("eval", "Evaluate a GNN model on a held-out data set with SimGrid");
  eval->footer("Example:\n  hulk gnn eval --data data/heldout --model models/hulk-gnn.pt --out runs/heldout.csv");
  auto e = std::make_shared<EvalArgs>();
  eval->add_option("--data", e->data, "held-out data set folder")->required();
  eval->add_option("--model", e->model, "model file (default: the committed model)");
  eval->add_option("--out", e->out, "per-sample CSV to write");
  eval->add_option("--candidates", e->candidates, "placements the sampling decoder tries per view (1 = argmax decode only; large jobs get fewer, as "
                  "in the gnn method: at most " + std::to_string(gnn::SamplingOptions{}.rank_budget) +
                      " candidates x ranks)")
      ->capture_default_str();
  eval->callback([e] { run_gnn_eval(*e); });
}

}  // namespace hulk::cli
