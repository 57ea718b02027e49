#pragma once
/** @file spec.hpp
 *  @brief Plain structs describing a scenario after parsing and validation: platform, network settings, job,
 *  placement request. SI units everywhere (bytes, seconds, flop/s, bytes/s). No SimGrid, no YAML, no torch. */
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace hulk {

/** @brief One GPU model (from platforms/gpus.yaml or an inline {name, flops, memory}). */
struct GpuSpec {
  std::string name;
  double fp16_flops = 0;      ///< peak dense fp16/bf16 flop/s (tensor cores where present)
  double fp32_flops = 0;      ///< peak dense fp32 flop/s
  double fp8_flops = 0;       ///< peak dense fp8 tensor-core flop/s (0 = the GPU has no fp8 tensor cores)
  double memory_bytes = 0;    ///< device memory, bytes
  std::string capability;     ///< CUDA compute capability, e.g. "8.0" ("" if unknown)
  double memory_bandwidth_Bps = 0;  ///< device memory bandwidth, bytes/s (0: unknown, no memory-bound term)
  int sms = 0;                ///< streaming multiprocessors (0: unknown, no wave quantization)
  std::string source;         ///< public source of the numbers
  /** @brief Peak flop/s used for a precision; fp16 falls back to fp32 math where that is faster (Pascal). */
  double peak_flops(const std::string& precision) const {
    if (precision == "fp32") return fp32_flops;
    if (precision == "fp8") return fp8_flops;
    return fp16_flops > fp32_flops ? fp16_flops : fp32_flops;
  }
};

/** @brief A network link: bandwidth in bytes/s, latency in seconds. */
struct LinkSpec {
  double bandwidth_Bps = 0;
  double latency_s = 0;
};

/** @brief One GPU server. */
struct HostSpec {
  std::string name;      ///< unique host name (SimGrid host name)
  int region = 0;        ///< index into PlatformSpec::regions
  int gpus = 1;          ///< GPUs in this server
  GpuSpec gpu;           ///< all GPUs of a server are the same model
  LinkSpec host_link;    ///< the server's NIC link into its region (full duplex)
  LinkSpec intra_link;   ///< GPU<->GPU inside the server, per GPU (NVLink/PCIe class)
};

/** @brief How WAN capacity is shared. `pair`: one shared full-duplex link per region pair, all flows
 *  between the two regions share its bandwidth (a leased line, a VPN tunnel). `host`: each host has its own cap
 *  toward each other region (Linux tc/netem egress shaping, a cloud VM's per-instance limit); no region-pair pipe. */
enum class WanCapacity { pair, host };

/** @brief A whole multi-region cluster. The host order is the "listed order" used by round-robin. */
struct PlatformSpec {
  std::vector<std::string> regions;  ///< region names, index = region id
  std::vector<HostSpec> hosts;
  /** @brief WAN link between two distinct regions, indexed [a][b] (symmetric; diagonal unused). What its bandwidth
   *  caps depends on wan_capacity: the region pair's one shared full-duplex link, or each host's own egress toward
   *  the other region. */
  std::vector<std::vector<LinkSpec>> wan;
  /** @brief What a `wan` bandwidth means: one pipe per region pair, or each host's own cap toward the region. */
  WanCapacity wan_capacity = WanCapacity::pair;
  /** @brief Optional per-host-pair one-way latency (seconds) that replaces the WAN/LAN latency between two
   *  hosts (measured data). Key (a, b) with a < b (host indices). */
  std::map<std::pair<int, int>, double> host_pair_latency_s;
  /** @brief Route bottleneck bandwidth per host pair (a < b), only for SimGrid XML platforms (whose links are
   *  not described by host_link/wan). Used by the analytic evaluator. */
  std::map<std::pair<int, int>, double> host_pair_bandwidth_Bps;
  /** @brief SimGrid XML only: the fastest link on any route between two hosts and its bandwidth (bytes/s), checked
   *  against the bandwidth bounds as the routes' bottlenecks are: a link faster than its route's bottleneck still
   *  shares its capacity among the flows crossing it (a WAN link typed 100Tbps instead of 100Gbps ran 4x faster). */
  std::string fastest_link;
  double fastest_link_Bps = 0;
  /** @brief If non-empty, the platform comes from this SimGrid XML file (hosts above map onto its hosts). */
  std::string simgrid_xml;
  /** @brief SimGrid XML only: SimGrid's loopback link (platform.simgrid.intra_host), which carries the messages
   *  between GPUs of a host whose XML gives it no route to itself (sim/engine/simgrid_xml.cpp). */
  LinkSpec xml_loopback{150e9, 2e-6};
  /** @brief Warnings produced while building (importer quirks etc.), in a deterministic order. */
  std::vector<std::string> warnings;

  int total_gpus() const {
    int n = 0;
    for (const auto& h : hosts) n += h.gpus;
    return n;
  }
};

/** @brief SimGrid network-model settings (docs/model.md: analytic defaults). */
struct NetworkSpec {
  std::string model = "CM02";  ///< SimGrid network/model
  double tcp_window_bytes = 0; ///< network/TCP-gamma; 0 = no window cap
  bool crosstraffic = false;   ///< network/crosstraffic
  /** @brief Messages of one kind from one rank to one peer travel in order over this many parallel channels
   *  (NCCL channels / TCP connections): a message starts transmitting when one of the peer's channels is free,
   *  i.e. when an earlier message has left the sender. Default 1 (see scenarios/README.md). */
  int channels_per_peer = 1;
};

/** @brief Transformer model shape. The defaults past vocab describe a GPT-style decoder (multi-head attention, a
 *  two-matrix MLP of 4 x hidden, learned positions, tied embeddings); a Llama-style one has grouped-query attention
 *  (kv_heads < heads), a gated MLP (SwiGLU: three matrices), rotary positions and untied embeddings. */
struct ModelSpec {
  std::string name;
  int layers = 0;
  int hidden = 0;
  int heads = 0;
  int seq_len = 0;
  int vocab = 0;
  int kv_heads = 0;             ///< key/value heads (grouped-query attention); 0 = heads
  int ffn_hidden = 0;           ///< MLP inner width; 0 = 4 x hidden
  bool gated_mlp = false;       ///< gated MLP (SwiGLU): gate, up and down matrices instead of two
  bool tied_embeddings = true;  ///< the output layer shares the word-embedding matrix
  /** @brief Rows of a learned position-embedding table; 0 = seq_len; -1 = no table (rotary positions). */
  int position_rows = 0;
  /** @brief The config.json this shape was read from (`hf_config:`), "" otherwise. */
  std::string hf_config;
  /** @brief Key/value heads in force. */
  int kv_heads_or_heads() const { return kv_heads > 0 ? kv_heads : heads; }
  /** @brief MLP inner width in force. */
  long long ffn_or_default() const { return ffn_hidden > 0 ? ffn_hidden : 4LL * hidden; }
  /** @brief Rows of the learned position table in force (0 with rotary positions). */
  long long position_rows_or_default() const {
    return position_rows < 0 ? 0 : position_rows > 0 ? position_rows : seq_len;
  }
};

/** @brief Degrees of parallelism. */
struct Parallelism {
  int dp = 1;
  int tp = 1;
  int pp = 1;
  int ranks() const { return dp * tp * pp; }
};

/** @brief How the job's data-parallel replicas synchronise. `step`: every iteration, as always.
 *  `diloco`: replicas are grouped into islands; inside an island the job runs as with `step` (its DP all-reduce
 *  among the island's replicas), and every inner_steps iterations the islands all-reduce their pseudo-gradients
 *  (the outer step, DiLoCo: arXiv 2311.08105), compressed, across islands. */
struct SyncSpec {
  std::string algorithm = "step";  ///< step | diloco
  int inner_steps = 1;             ///< H: inner iterations per outer round (diloco)
  /** @brief How replicas form islands: "region" (a replica's island is the region of its first rank), "host" (its
   *  host), or "groups" (island_groups: the group holding its first rank's host). */
  std::string islands = "region";
  std::vector<std::vector<std::string>> island_groups;  ///< host names per island (islands: groups)
  std::string compression = "none";  ///< none (fp32) | bf16 | int8 | topk (topk_ratio of the values, with indices)
  double topk_ratio = 0;             ///< fraction of pseudo-gradient values sent (compression: topk)
  std::string overlap = "none";      ///< none | outer (the outer all-reduce overlaps the next inner steps)
  bool diloco() const { return algorithm == "diloco"; }
  /** @brief Bytes sent per pseudo-gradient value: fp32 4, bf16 2, int8 1, top-k ratio x (4-byte value + 4-byte
   *  index). */
  double bytes_per_value() const {
    if (compression == "bf16") return 2;
    if (compression == "int8") return 1;
    if (compression == "topk") return topk_ratio * 8;
    return 4;
  }
};

/** @brief Periodic checkpoints of a job: after every `every`-th iteration all its ranks pause for
 *  `cost_s` (the write), and a job whose host fails restarts from the last one. every = 0: no checkpoints (a failed
 *  job restarts from iteration 0). */
struct CheckpointSpec {
  int every = 0;
  double cost_s = 0;
};

/** @brief The training job. */
struct JobSpec {
  /** @brief Name of the job in a several-job scenario (`jobs:`, unique); "" for the one job of `job:`. */
  std::string name;
  /** @brief Weight of the job's iteration time in the cluster objective (Scenario::jobs; > 0, default 1). */
  double weight = 1;
  ModelSpec model;
  std::string precision = "fp16";      ///< fp16 | bf16 | fp32 | fp8 (fp8 GEMMs, bf16 activations: workload_features.hpp)
  int global_batch = 1;                ///< sequences per iteration
  int micro_batch = 1;                 ///< sequences per micro-batch
  Parallelism par;
  std::string schedule = "1f1b";       ///< 1f1b | gpipe
  /** @brief Model chunks per pipeline rank (Megatron's interleaved 1F1B, --num-layers-per-virtual-pipeline-stage);
   *  1 = not interleaved. */
  int virtual_stages = 1;
  /** @brief ZeRO stage over the data-parallel group: 0 none, 1 optimizer state, 2 + gradients, 3 + parameters
   *  (FSDP's full sharding). See sim/workload/workload_features.hpp. */
  int zero = 0;
  /** @brief Megatron sequence parallelism (needs tp > 1): TP all-reduces become reduce-scatter + all-gather, the
   *  activations outside the tensor-parallel regions are split over tp. */
  bool sequence_parallel = false;
  std::string collective = "ring";     ///< DP all-reduce: ring | hierarchical | tree
  int iterations = 1;
  double utilisation = 0.4;            ///< achieved fraction of peak flop/s
  bool check_memory = true;            ///< a stage that does not fit is an error
  /** @brief Activation recomputation (Megatron-LM --recompute-granularity): none | selective | full. */
  std::string recompute = "none";
  /** @brief Optimizer whose state sits on the GPU: adam | sgd (momentum SGD). */
  std::string optimizer = "adam";
  /** @brief How GPU work is timed: "shape" (GEMM efficiency by shape, memory-bound ops at the GPU's memory
   *  bandwidth, optimizer step; sim/workload/compute_efficiency.hpp) or "flat" (every flop at peak x utilisation,
   *  no optimizer step). */
  std::string compute_model = "shape";
  /** @brief Precision of the data-parallel gradient all-reduce: fp32 | fp16 | bf16; "" = Megatron-LM's default for
   *  the job's precision (bf16 -> fp32, fp16 -> fp16, fp32 -> fp32). */
  std::string grad_reduce_precision;
  /** @brief Megatron's end of an iteration after the DP all-reduce: the tied-embedding all-reduce, the gradient
   *  norm's all-reduce, the optimizer step (compute_efficiency.hpp). false: none of them. */
  bool step_costs = true;
  /** @brief Fixed time per iteration not modelled otherwise (data loading, logging, kernel launches), seconds. */
  double framework_overhead_s = 0;
  /** @brief Pipeline point-to-point mode: blocking (Megatron-LM's 1F1B: batched send/recv on the critical path)
   *  or overlapped (GPipe-style: sends on a separate stream, never block compute). "" = as the schedule's
   *  reference implementation does: 1f1b -> blocking (Megatron-LM), gpipe -> overlapped (torchgpipe). */
  std::string pipeline_p2p;
  /** @brief Data-parallel synchronisation across islands (default: every step). */
  SyncSpec sync;
  /** @brief Checkpoints (job.checkpoint {every, cost}); used when a host of the job fails (Scenario::events). */
  CheckpointSpec checkpoint;
  /** @brief The p2p mode in force (pipeline_p2p, or the schedule's default when it is empty). */
  bool pipeline_p2p_blocking() const {
    // Interleaved 1F1B runs overlapped p2p (Megatron's --overlap-p2p-communication; blocking is refused with it).
    return pipeline_p2p.empty() ? schedule == "1f1b" && virtual_stages == 1 : pipeline_p2p == "blocking";
  }
  /** @brief Micro-batches per iteration for one pipeline: global_batch / (dp * micro_batch). */
  int micro_batches() const { return global_batch / (par.dp * micro_batch); }
};

/** @brief One GPU slot of the platform. */
struct GpuSlot {
  int host = 0;  ///< index into PlatformSpec::hosts
  int slot = 0;  ///< 0..gpus-1 inside the host
  bool operator==(const GpuSlot& o) const { return host == o.host && slot == o.slot; }
  bool operator<(const GpuSlot& o) const { return host != o.host ? host < o.host : slot < o.slot; }
};

/** @brief rank -> GPU. Ranks are in Megatron order: rank = ((pp * DP) + dp) * TP + tp. With several jobs
 *  (Scenario::jobs) the jobs' rank lists are stored one after the other, in the order of the jobs: job j's rank r
 *  is entry job_rank_offset(scenario, j) + r (sim/core/jobs.hpp). */
struct Placement {
  std::vector<GpuSlot> gpu_of_rank;
};

/** @brief What an event acts on. */
struct EventTarget {
  enum class Kind {
    wan_pair,   ///< the WAN between regions region_a and region_b (both directions; capacity `host`: every host's
                ///< egress cap from one of the two regions toward the other)
    host_link,  ///< host `host`'s NIC (both halves) and, capacity `host`, its WAN egress caps
    host,       ///< the GPU server `host` itself (speed, failure)
  };
  Kind kind = Kind::wan_pair;
  int region_a = -1;  ///< wan_pair: region indices, region_a < region_b
  int region_b = -1;
  int host = -1;      ///< host_link / host: host index
};

/** @brief One disturbance of a scenario (Scenario::events), in simulated time from the start of the run. */
struct EventSpec {
  enum class Kind {
    link_change,  ///< bandwidth and/or latency of the target links change for duration_s
    link_down,    ///< the target links carry nothing for duration_s; traffic waits, nothing is lost
    host_speed,   ///< the host's GPUs run at speed_factor of their speed for duration_s (a straggler)
    host_fail,    ///< the host dies at at_s; its job restarts from its last checkpoint (JobSpec::checkpoint)
  };
  Kind kind = Kind::link_change;
  EventTarget target;
  double at_s = 0;  ///< start, seconds (>= 0)
  /** @brief How long it lasts, seconds; +infinity = for good. host_fail: how long the host stays down (+infinity:
   *  never back; the job then needs spare GPUs). */
  double duration_s = 0;
  /** @brief link_change: new bandwidth as a fraction of the link's own (bandwidth: 10%), or 0 when absolute. */
  double bandwidth_factor = 0;
  /** @brief link_change: new bandwidth in bytes/s (bandwidth: 300Mbps), or 0 when a factor (or unchanged). Both 0:
   *  the bandwidth does not change. */
  double bandwidth_Bps = 0;
  /** @brief link_change: new one-way latency of the target link, seconds; < 0: unchanged. */
  double latency_s = -1;
  double speed_factor = 1;  ///< host_speed: fraction of the GPUs' speed, in (0, 1] (or above 1: faster)
  double restart_s = 0;     ///< host_fail: time from the failure until the job runs again (restart: 300s)
  /** @brief Where it was written, for messages: "events[3]" or "trace.csv row 12" (with line, the YAML or CSV
   *  line). */
  std::string origin;
  int line = 0;
  /** @brief True while the event is in force at time t (a failure: from at_s on). */
  bool active_at(double t) const { return t >= at_s && t < at_s + duration_s; }
};

/** @brief The distribution a robust placement is optimised over (Scenario::robust): each WAN region pair is
 *  degraded to bandwidth_factor of its bandwidth with probability pair_probability, independently, in each of
 *  `samples` network states drawn from `seed`; the robust objective is the mean iteration time over the states.
 *  samples = 0: not set. */
struct RobustSpec {
  double pair_probability = 0;
  double bandwidth_factor = 1;
  int samples = 0;
  std::uint64_t seed = 0;
};

/** @brief What `hulk plan` chooses and within which bounds (`auto` job values and the `plan:` map). A scenario with
 *  any part auto is an input to `hulk plan` only; other commands refuse it. */
struct PlanSpec {
  bool parallelism = false;  ///< job.parallelism: auto (dp, tp, pp chosen)
  bool micro_batch = false;  ///< job.micro_batch: auto
  bool schedule = false;     ///< job.schedule: auto (1f1b | gpipe)
  bool recompute = false;    ///< job.recompute: auto (none | selective | full)
  bool zero = false;         ///< job.zero: auto (ZeRO stages 0..3)
  bool sequence_parallel = false;  ///< job.sequence_parallel: auto (false | true where tp > 1)
  int min_gpus = 1;          ///< fewest GPUs a layout may use
  int max_gpus = 0;          ///< most GPUs a layout may use; 0 = all of the platform's
  int tp_max = 0;            ///< largest tensor-parallel degree; 0 = the most GPUs of one host
  int pp_max = 0;            ///< largest pipeline degree; 0 = the model's layers
  std::string objective = "time";  ///< what the plan minimises: "time" (per iteration) or "cost" ($ per 1M tokens)
  /** @brief Degrees the plan must keep (`plan: {dp, tp, pp}`); 0 = free. */
  Parallelism fixed{0, 0, 0};
  /** @brief `plan.layouts`: the only dp x tp x pp the plan may choose from (empty = any). */
  std::vector<Parallelism> layouts;
  /** @brief True if some part of the job is left to `hulk plan`. */
  bool any_auto() const {
    return parallelism || micro_batch || schedule || recompute || zero || sequence_parallel;
  }
};

/** @brief Optional prices (`prices:`) for the cost objective of `hulk plan`, in dollars. Empty when not given. */
struct PriceSpec {
  /** @brief $ per GPU-hour by GPU kind (GpuSpec::name). */
  std::map<std::string, double> gpu_hour;
  /** @brief $ per GB (1e9 bytes) crossing a region pair, by [region a][region b] (symmetric); NaN where no price
   *  was given for the pair and there is no default. Empty without `prices.egress_gb`. */
  std::vector<std::vector<double>> egress_gb;
  /** @brief True if any price was given. */
  bool any() const { return !gpu_hour.empty() || !egress_gb.empty(); }
};

/** @brief A fully parsed and validated scenario. */
struct Scenario {
  std::string name;
  std::string file;         ///< path of the YAML file it came from ("" if built in code)
  std::uint64_t seed = 0;
  PlatformSpec platform;
  NetworkSpec network;
  /** @brief The jobs sharing the cluster, in Placement order: always at least one. A `job:` scenario is the list of
   *  one (its name ""), `jobs:` names every entry. See sim/core/jobs.hpp for rank offsets, one-job views and the
   *  cluster objective. */
  std::vector<JobSpec> jobs = std::vector<JobSpec>(1);
  /** @brief Written with `jobs:`, even a list of one: results and messages then name each job (comm.csv's job
   *  column, "job 'NAME'"), which they do not for the job of `job:`. Read it through names_jobs() (jobs.hpp), which
   *  is also true whenever there is more than one job. */
  bool jobs_listed = false;
  /** @brief The job, for code that handles exactly one (a one-job scenario, or a job_view of one job).
   *  @throws std::logic_error with several jobs: such code must loop over `jobs` instead. */
  const JobSpec& only_job() const {
    if (jobs.size() != 1) throw std::logic_error("one-job code reached with " + std::to_string(jobs.size()) + " jobs");
    return jobs.front();
  }
  /** @brief The job, writable (see the const overload). */
  JobSpec& only_job() { return const_cast<JobSpec&>(static_cast<const Scenario&>(*this).only_job()); }
  std::string placement = "round-robin";  ///< method name, or "file:PATH" (PATH resolved to absolute)
  /** @brief Disturbances (`events:` and the rows of `trace:` files), sorted by at_s then by where they were
   *  written; empty = a quiet network. */
  std::vector<EventSpec> events;
  /** @brief The robust objective's distribution (`robust:`), samples = 0 when absent. */
  RobustSpec robust;
  /** @brief The parts `hulk plan` chooses and its constraints (`auto` values, `plan:`); nothing auto by default. */
  PlanSpec plan;
  PriceSpec prices;  ///< `prices:` (cost objective of `hulk plan`)
};

}  // namespace hulk
