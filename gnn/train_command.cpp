#include "train_command.hpp"

#include "dataset.hpp"
#include "train.hpp"

namespace hulk::gnn {

TrainSummary train_from_dir(const std::string& data_dir, bool allow_partial, const std::string& model_out, int epochs,
                            std::uint64_t seed, const std::function<double(const Scenario&, const Placement&)>& evaluator,
                            std::ostream* progress) {
  const std::vector<Sample> data = load_dataset(data_dir, allow_partial);
  TrainOptions options;
  options.epochs = epochs;
  options.seed = seed;
  const TrainResult r = train_model(data, model_out, options, evaluator, progress);
  TrainSummary s;
  s.train_samples = r.train_samples;
  s.val_samples = r.val_samples;
  s.skipped_samples = r.skipped_samples;
  s.epochs_run = static_cast<int>(r.history.size());
  s.interrupted = r.interrupted;
  return s;
}

}  // namespace hulk::gnn
