#include "gnn/gen_moves.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>

#include "gnn/dataset.hpp"
#include "gnn/format_version.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/subprocess.hpp"

namespace hulk::gnn {
namespace {

/** Creates the manifest, or checks that an existing one was written with the same options (samples of other
 *  options must not be mixed in one folder). */
void prepare_folder(const GenMovesOptions& a) {
  Manifest manifest;
  manifest.format_version = kDatasetFormatVersion;
  manifest.count = a.count;
  manifest.seed = a.seed;
  manifest.generator = gen_moves_generator(a);
  if (!std::filesystem::exists(std::filesystem::path(a.out) / "manifest.json")) return write_manifest(a.out, manifest);
  const Manifest old = read_manifest(a.out);
  if (old.generator != manifest.generator)
    throw InputError(a.out + "/manifest.json", 0, "generator",
                     "the folder holds a data set made by '" + old.generator + "', not '" + manifest.generator +
                         "'; use another --out");
}

}  // namespace

std::string gen_moves_generator(const GenMovesOptions& a) {
  return "hulk gnn gen-moves --count " + std::to_string(a.count) + " --seed " + std::to_string(a.seed) +
         " --max-gpus " + std::to_string(a.options.max_gpus) +
         // The default floor is left out: the manifests written before the option stay valid.
         (a.options.min_gpus != MoveDataOptions{}.min_gpus ? " --min-gpus " + std::to_string(a.options.min_gpus) : "") +
         " --states " + std::to_string(a.options.states) +
         " --moves " + std::to_string(a.options.moves_per_state);
}

GenMovesReport run_gen_moves(const GenMovesOptions& a, const std::function<void(const std::string&)>& progress) {
  const auto say = [&progress](const std::string& line) {
    if (progress) progress(line);
  };
  const auto owns = [&a](int k) { return k % a.shard_count == a.shard_index; };
  prepare_folder(a);
  GenMovesReport r;
  for (int i = 0; i < a.count; ++i)
    if (owns(i)) ++r.mine, r.present += sample_exists(a.out, i);
  say("gen-moves: " + std::to_string(r.mine) + " samples in this shard, " + std::to_string(r.present) +
      " already present");
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < a.count && !interrupt_requested(); ++i) {
    if (!owns(i) || sample_exists(a.out, i)) continue;
    try {
      const MoveSample sample = make_move_sample(i, a.seed, a.options);
      write_move_sample(a.out, sample);  // atomic: a killed run leaves no half sample
      for (const MoveState& st : sample.states) r.examples += static_cast<long long>(st.moves.size());
      ++r.made;
    } catch (const InputError& e) {
      ++r.skipped;  // a sampled job that cannot be placed: marked, reported
      write_skip_marker(a.out, i, e.what());
      say("gen-moves: sample " + std::to_string(i) + " skipped: " + e.what());
      continue;
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    char line[200];
    std::snprintf(line, sizeof line, "gen-moves: [%d/%d] sample %d done, %lld labelled moves, %.0f moves/s",
                  r.present + r.made, r.mine, i, r.examples, r.examples / std::max(s, 1e-9));
    say(line);
  }
  say("gen-moves: " + std::to_string(r.made) + " new samples (" + std::to_string(r.examples) + " labelled moves), " +
      std::to_string(r.skipped) + " skipped");
  if (interrupt_requested())
    throw Interrupted(std::to_string(r.present + r.made) + " finished samples kept in " + a.out + "; rerun to resume");
  return r;
}

}  // namespace hulk::gnn
