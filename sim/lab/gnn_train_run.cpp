#include "sim/lab/gnn_train_run.hpp"

#include <filesystem>
#include <map>
#include <memory>

#include "sim/core/errors.hpp"
#include "sim/core/subprocess.hpp"
#include "sim/evaluate/evaluator.hpp"

namespace hulk {

void run_gnn_train(const GnnTrainOptions& o) {
  namespace fs = std::filesystem;
  if (o.data_dirs.empty() || o.model_out.empty()) throw InputError("", 0, "--data/--out", "both are required");
  for (std::size_t i = 0; i < o.data_dirs.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (fs::weakly_canonical(o.data_dirs[i]) == fs::weakly_canonical(o.data_dirs[j]))  // ./d/ is d
        throw InputError("", 0, "--data", "'" + o.data_dirs[i] + "' is given twice (its samples would count twice)");
  // One Evaluator per scenario: its construction (routes, schedule) is the costly part.
  std::map<const Scenario*, std::unique_ptr<Evaluator>> evaluators;
  const PlacementTimer evaluator = [&evaluators](const Scenario& s, const Placement& p) {
    auto& e = evaluators[&s];
    if (!e) e = std::make_unique<Evaluator>(s);
    return e->iteration_time_s(p);
  };
  if (!o.train(evaluator)) return;
  // Name what is on disk: the checkpoint of the last finished epoch, or nothing when none finished.
  const std::string ckpt = o.model_out + ".ckpt";
  if (!fs::exists(ckpt)) throw Interrupted("no epoch finished: nothing written");
  throw Interrupted("the finished epochs are kept in " + ckpt + " (the same command resumes from it); " + o.model_out +
                    " is written when training ends");
}

}  // namespace hulk
