#include "sim/lab/gen_data.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>

#include "sim/core/errors.hpp"
#include "sim/core/seeding.hpp"
#include "sim/core/subprocess.hpp"

namespace hulk {
namespace {

/** The value of `--flag V` in a manifest's generator command line ("" if absent). */
std::string generator_option(const std::string& generator, const std::string& flag) {
  std::stringstream ss(generator);
  std::string word;
  while (ss >> word)
    if (word == flag && ss >> word) return word;
  return "";
}

/** One labelled sample of the data set (the scenario of its index's seed, labelled). */
LabelledSample make_sample(int index, const GenDataOptions& o, const GenDataStore& store) {
  LabelOptions options;
  options.budget = o.budget;
  options.max_gpus = o.max_gpus;
  options.simgrid = o.label == "simgrid";
  options.wan = o.wan;
  const std::uint64_t sample_seed = store.scenario_seed(o.seed, index);
  if (o.max_jobs >= 2)
    options.jobs = o.min_jobs + static_cast<int>(component_seed(sample_seed, "gen-data#jobs") %
                                                 (o.max_jobs - o.min_jobs + 1));
  return make_labelled_sample(sample_seed, options);
}

/** Creates the manifest, or refuses a folder whose data set was made with other options. */
void prepare_folder(const GenDataOptions& o, const GenDataStore& store) {
  const DataSetIdentity now{o.count, o.seed, gen_data_generator(o)};
  const std::optional<DataSetIdentity> old = store.existing();
  if (!old) return store.create(now);
  const std::string changed = changed_generation_option(*old, now);
  if (!changed.empty())
    throw InputError(o.out + "/manifest.json", 0, "",
                     "the folder holds a data set generated with other options: " + changed + "; use another --out");
}

}  // namespace

std::string gen_data_generator(const GenDataOptions& a) {
  return "hulk gnn gen-data --count " + std::to_string(a.count) + " --seed " + std::to_string(a.seed) + " --budget " +
         std::to_string(a.budget) + " --max-gpus " + std::to_string(a.max_gpus) +
         (a.jobs.empty() ? "" : " --jobs " + a.jobs) + (a.label == "simgrid" ? "" : " --label " + a.label) +
         (a.wan == "pair" ? "" : " --wan " + a.wan);
}

std::string changed_generation_option(const DataSetIdentity& old, const DataSetIdentity& now) {
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

GenDataReport run_gen_data(const GenDataOptions& o, const GenDataStore& store,
                           const std::function<void(const std::string&)>& progress) {
  const auto say = [&progress](const std::string& line) {
    if (progress) progress(line);
  };
  const auto owns = [&o](int k) { return k % o.shard_count == o.shard_index; };
  prepare_folder(o, store);
  GenDataReport r;
  for (int i = 0; i < o.count; ++i)
    if (owns(i)) ++r.mine, r.present += store.has(i);
  say("gen-data: " + std::to_string(r.mine) + " samples in this shard, " + std::to_string(r.present) +
      " already present");
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < o.count && !interrupt_requested(); ++i) {
    if (!owns(i) || store.has(i)) continue;
    try {
      LabelledSample sample = make_sample(i, o, store);
      if (interrupt_requested()) break;  // a label cut short by the interrupt is not a sample
      store.write(i, std::move(sample));  // atomic: a killed run leaves no half sample
      ++r.made;
    } catch (const Interrupted&) {
      break;
    } catch (const InputError& e) {
      if (interrupt_requested()) break;  // failed because of the interrupt: not a skipped sample
      ++r.skipped;  // a sampled job that cannot be placed: marked skipped, reported
      store.skip(i, e.what());
      say("gen-data: sample " + std::to_string(i) + " skipped: " + e.what());
      continue;
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    char line[160];
    std::snprintf(line, sizeof line, "gen-data: [%d/%d] sample %d done, %.1f samples/min", r.present + r.made, r.mine,
                  i, 60.0 * r.made / std::max(s, 1e-9));
    say(line);
  }
  say("gen-data: " + std::to_string(r.made) + " new samples, " + std::to_string(r.skipped) + " skipped");
  if (interrupt_requested())
    throw Interrupted(std::to_string(r.present + r.made) + " finished samples kept in " + o.out + "; rerun to resume");
  std::string gaps = "gen-data: " + gap_distribution_text(store.times());
  if (!gaps.empty() && gaps.back() == '\n') gaps.pop_back();
  say(gaps);
  return r;
}

}  // namespace hulk
