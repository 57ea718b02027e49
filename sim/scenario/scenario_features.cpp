// The job's workload features (virtual_stages, zero, sequence_parallel, precision fp8): their keys and their checks
// against the job and the platform (scenarios/README.md, "Workload features").
#include <string>

#include "sim/scenario/bounds.hpp"
#include "sim/scenario/scenario_parts.hpp"

namespace hulk::detail {

void parse_workload_features(const YamlReader& r, const YAML::Node& job, const std::string& key, JobSpec& j) {
  if (job["virtual_stages"])
    r.collect([&] {
      j.virtual_stages =
          static_cast<int>(r.integer(job["virtual_stages"], key + ".virtual_stages", 1, bounds::kMaxLayers));
    });
  if (job["zero"])
    r.collect([&] { j.zero = static_cast<int>(r.integer(job["zero"], key + ".zero", 0, 3)); });
  if (job["sequence_parallel"])
    r.collect([&] { j.sequence_parallel = r.boolean(job["sequence_parallel"], key + ".sequence_parallel"); });
}

namespace {

/** Megatron-LM's interleaved schedule: its conditions on the job (k: the job's key). */
void check_virtual_stages(const JobSpec& j, const std::string& k, bool auto_par, const FeatureFail& fail) {
  const int v = j.virtual_stages, p = j.par.pp;
  if (v < 1 || v > bounds::kMaxLayers)
    fail(k + ".virtual_stages", "virtual_stages " + std::to_string(v) + " is out of range (expected 1 to " +
                                    std::to_string(bounds::kMaxLayers) + ")");
  if (v == 1) return;
  if (j.schedule != "1f1b")
    fail(k + ".virtual_stages", "virtual_stages " + std::to_string(v) + " needs schedule 1f1b, not " + j.schedule +
                                    " (expected virtual_stages 1 with gpipe)");
  if (j.pipeline_p2p == "blocking")
    fail(k + ".pipeline_p2p", "blocking p2p is not modelled with virtual_stages " + std::to_string(v) +
                                  " (expected overlapped or absent: Megatron's --overlap-p2p-communication)");
  if (auto_par) return;  // `hulk plan` chooses the degrees
  if (p < 3)
    fail(k + ".virtual_stages", "virtual_stages " + std::to_string(v) + " needs pp >= 3, got pp " +
                                    std::to_string(p) + " (expected virtual_stages 1, or more stages)");
  const long long chunks = static_cast<long long>(p) * v;
  if (j.model.layers % chunks != 0)
    fail(k + ".virtual_stages", "layers " + std::to_string(j.model.layers) + " are not divisible by pp x " +
                                    "virtual_stages = " + std::to_string(chunks) +
                                    " (expected the same layers in every model chunk)");
  const long long per_step = static_cast<long long>(j.par.dp) * j.micro_batch;
  if (j.global_batch % per_step == 0 && (j.global_batch / per_step) % p != 0)
    fail(k + ".virtual_stages", "virtual_stages " + std::to_string(v) + " needs micro-batches per pipeline (" +
                                    std::to_string(j.global_batch / per_step) + ") divisible by pp " +
                                    std::to_string(p) + " (expected as Megatron-LM's interleaved schedule requires)");
}

}  // namespace

void check_workload_features(const Scenario& s, const JobSpec& j, const std::string& k, bool auto_par,
                             const FeatureFail& fail) {
  check_virtual_stages(j, k, auto_par, fail);
  if (j.zero < 0 || j.zero > 3)
    fail(k + ".zero", "zero " + std::to_string(j.zero) + " is not a ZeRO stage (expected 0, 1, 2 or 3)");
  if (j.zero > 0 && j.sync.diloco())
    fail(k + ".zero", "ZeRO sharding with sync diloco is not modelled (expected zero 0 with diloco)");
  if (!auto_par && j.zero == 3 && j.par.pp > 1)
    fail(k + ".zero", "zero 3 with pp " + std::to_string(j.par.pp) +
                          " is not modelled: its parameter all-gathers would repeat per micro-batch (expected pp 1, "
                          "or zero 1 or 2 with pipelines)");
  if (!auto_par && j.sequence_parallel && j.par.tp < 2)
    fail(k + ".sequence_parallel", "sequence parallelism needs tp > 1, got tp " + std::to_string(j.par.tp) +
                                       " (expected sequence_parallel false without tensor parallelism)");
  if (j.precision != "fp8") return;
  for (const HostSpec& h : s.platform.hosts)
    if (h.gpus > 0 && !(h.gpu.fp8_flops > 0))
      fail(k + ".precision", "GPU '" + h.gpu.name + "' (host " + h.name +
                                 ") has no fp8 peak (no fp8 tensor cores in platforms/gpus.yaml; expected fp16, bf16 "
                                 "or fp32 on it, or an inline GPU with fp8)");
}

}  // namespace hulk::detail
