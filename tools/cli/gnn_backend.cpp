#include "tools/cli/gnn_backend.hpp"

#include <filesystem>

#include "gnn/dataset.hpp"
#include "gnn/format_version.hpp"
#include "sim/core/errors.hpp"
#include "tools/cli/gnn_plugin_loader.hpp"

namespace hulk::cli {

MethodOptions cli_method_options() {
  MethodOptions options;
  options.learned = [](const Scenario& scenario, const std::string& model_path, const Placement* greedy) {
    return place_learned(*gnn_plugin().make_placer(model_path, gnn::SamplingOptions{}), scenario, greedy);
  };
  options.prepare_learned = [] { gnn_plugin(); };
  options.check_learned_model = [](const std::string& model_path) {
    gnn_plugin().make_placer(model_path, gnn::SamplingOptions{});  // loads (and so checks) the model file
  };
  return options;
}

namespace {

/** The decoder's options with a row's switches set (the rest the decoder's defaults). */
gnn::SamplingOptions sampling_options(const LearnedDecoder& d) {
  gnn::SamplingOptions o;
  o.candidates = d.candidates.value_or(o.candidates);
  o.greedy_candidate = d.greedy_candidate.value_or(o.greedy_candidate);
  o.reference_prior = d.reference_prior.value_or(o.reference_prior);
  o.prior_free_view = d.prior_free_view.value_or(o.prior_free_view);
  o.polish = d.polish.value_or(o.polish);
  o.polish_top_k = d.polish_top_k.value_or(o.polish_top_k);
  o.stage_orders = d.stage_orders.value_or(o.stage_orders);
  o.tp_rings = d.tp_rings.value_or(o.tp_rings);
  o.guided_anneal = d.guided_anneal.value_or(o.guided_anneal);
  o.walk_moves = d.walk_moves.value_or(o.walk_moves);
  o.walk_reorder = d.walk_reorder.value_or(o.walk_reorder);
  return o;
}

}  // namespace

LearnedBackend gnn_learned_backend() {
  LearnedBackend backend;
  backend.prepare = [] { gnn_plugin(); };
  backend.make_placer = [](const std::string& model_path, const LearnedDecoder& decoder) {
    return gnn_plugin().make_placer(model_path, sampling_options(decoder));
  };
  backend.save_untrained_model = [](const std::string& path, std::uint64_t seed) {
    gnn_plugin().save_untrained_model(path, seed);
  };
  return backend;
}

GenDataStore gnn_data_store(const std::string& dir) {
  GenDataStore store;
  store.existing = [dir]() -> std::optional<DataSetIdentity> {
    if (!std::filesystem::exists(dir + "/manifest.json")) return std::nullopt;
    const gnn::Manifest m = gnn::read_manifest(dir);
    return DataSetIdentity{m.count, m.seed, m.generator};
  };
  store.create = [dir](const DataSetIdentity& id) {
    std::filesystem::create_directories(dir);
    gnn::write_manifest(dir, {gnn::kDatasetFormatVersion, id.count, id.seed, id.generator});
  };
  store.has = [dir](int index) { return gnn::sample_exists(dir, index); };
  store.scenario_seed = [](std::uint64_t seed, int index) { return gnn::sample_seed(seed, index); };
  store.write = [dir](int index, LabelledSample&& labelled) {
    gnn::Sample sample;
    sample.index = index;
    sample.scenario = std::move(labelled.scenario);
    sample.traffic = std::move(labelled.traffic);
    sample.label = std::move(labelled.label);
    sample.times_s = std::move(labelled.times_s);
    gnn::write_sample(dir, sample);
  };
  store.skip = [dir](int index, const std::string& why) { gnn::write_skip_marker(dir, index, why); };
  store.times = [dir] {
    std::vector<std::map<std::string, double>> times;
    for (const gnn::Sample& s : gnn::load_dataset(dir, true)) times.push_back(s.times_s);
    return times;
  };
  return store;
}

std::vector<HeldOutCase> held_out_cases(const std::string& dir) {
  std::vector<HeldOutCase> cases;
  for (gnn::Sample& d : gnn::load_dataset(dir)) {
    if (!d.times_s.count("greedy") || !d.times_s.count("search"))
      throw InputError(gnn::sample_path(dir, d.index), 0, "times_s",
                       "no SimGrid greedy/search times (an evaluator-labelled set?); gnn-eval needs gen-data "
                       "--label simgrid");
    cases.push_back({d.index, std::move(d.scenario), std::move(d.times_s)});
  }
  return cases;
}

}  // namespace hulk::cli
