#include "train_command.hpp"

#include "dataset.hpp"
#include "train.hpp"

#include <iterator>

namespace hulk::gnn {

TrainSummary train_from_dir(const std::vector<std::string>& data_dirs, bool allow_partial, const std::string& model_out, int epochs,
                            std::uint64_t seed, const std::function<double(const Scenario&, const Placement&)>& evaluator,
                            std::ostream* progress) {
  std::vector<Sample> data;
  for (const std::string& dir : data_dirs) {
    std::vector<Sample> part = load_dataset(dir, allow_partial);
    data.insert(data.end(), std::make_move_iterator(part.begin()), std::make_move_iterator(part.end()));
  }
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
