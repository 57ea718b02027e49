#include <cmath>
#include "gnn/train_command.hpp"

#include <iterator>
#include <ostream>

#include "gnn/dataset.hpp"
#include "sim/core/errors.hpp"
#include "sim/scenario/catalog.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/features/scenario_sampler.hpp"
#include "gnn/train.hpp"

namespace hulk::gnn {

namespace {

/** Synthetic samples: sampled scenarios labelled with the greedy placement (Sample::reference_label). */
std::vector<Sample> synthetic_samples(const TrainCommand& c, std::ostream* progress) {
  SamplerOptions sampler;
  sampler.gpu_types = GpuCatalog::builtin().all();
  sampler.max_total_gpus = c.synthetic_max_gpus;
  std::vector<Sample> out;
  int unplaceable = 0;
  for (int i = 0; i < c.synthetic && !(c.interrupted && c.interrupted()); ++i) {
    Sample s;
    s.index = i;
    s.reference_label = true;
    // Another seed stream than gen-data's (sample_seed(seed, i)), so that no synthetic scenario repeats a data set's.
    s.scenario = sample_scenario(sample_seed(c.seed ^ 0x73796e7468ull, i), sampler);
    try {
      s.label = GreedyPlacer().place(s.scenario);
    } catch (const InputError&) {
      ++unplaceable;  // the sampled job does not fit its platform
      continue;
    }
    out.push_back(std::move(s));
  }
  if (c.interrupted && c.interrupted()) return out;  // cut short: the caller says so, these are not trained on
  if (progress && c.synthetic > 0)  // nothing to say without --synthetic (a bad input is then its error line only)
    *progress << "train: " << out.size() << " synthetic scenarios (" << unplaceable << " sampled jobs did not fit)\n";
  return out;
}

}  // namespace

TrainSummary train_from_dir(const TrainCommand& c,
                            const std::function<double(const Scenario&, const Placement&)>& evaluator,
                            std::ostream* progress) {
  if (c.synthetic < 0 || c.synthetic_max_gpus < 1)
    throw InputError("", 0, "--synthetic", "expected a non-negative count and a positive GPU cap");
  if (c.reinforce < 0 || c.reinforce == 1 || !(c.reinforce_weight >= 0) || !std::isfinite(c.reinforce_weight))
    throw InputError("", 0, "--reinforce", "expected 0 (off) or at least 2 sampled decodes, and a weight >= 0");
  if (c.validation_candidates < 1)
    throw InputError("", 0, "--validation-candidates", "expected at least 1 (1 = the argmax decode alone)");
  std::vector<Sample> data;
  for (const std::string& dir : c.data_dirs) {
    std::vector<Sample> part = load_dataset(dir, c.allow_partial);
    data.insert(data.end(), std::make_move_iterator(part.begin()), std::make_move_iterator(part.end()));
  }
  std::vector<Sample> extra = synthetic_samples(c, progress);
  const int synthetic = static_cast<int>(extra.size());
  if (c.interrupted && c.interrupted()) {  // stopped before the first epoch: nothing trained, nothing written
    TrainSummary stopped;
    stopped.interrupted = true;
    return stopped;
  }
  data.insert(data.end(), std::make_move_iterator(extra.begin()), std::make_move_iterator(extra.end()));
  TrainOptions options;
  options.epochs = c.epochs;
  options.seed = c.seed;
  options.reinforce_candidates = c.reinforce;
  options.reinforce_weight = c.reinforce_weight;
  options.init_model = c.init;
  options.validation_candidates = c.validation_candidates;
  // Named so that a resumed run with other synthetic data says which option changed (the data's digest, which
  // run_inputs adds, catches any other change of the samples).
  options.data_inputs = {{"--synthetic", std::to_string(c.synthetic)},
                         {"--synthetic-max-gpus", std::to_string(c.synthetic_max_gpus)}};
  options.interrupted = c.interrupted;
  const TrainResult r = train_model(data, c.model_out, options, evaluator, progress);
  TrainSummary s;
  s.train_samples = r.train_samples;
  s.val_samples = r.val_samples;
  s.skipped_samples = r.skipped_samples;
  s.synthetic_samples = synthetic;
  s.epochs_run = static_cast<int>(r.history.size());
  s.interrupted = r.interrupted;
  return s;
}

}  // namespace hulk::gnn
