#include "sim/features/scenario_sampler.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "sim/core/jobs.hpp"
#include "sim/workload/cost_model.hpp"
#include "sim/workload/memory_fit.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/seeding.hpp"

namespace hulk {

namespace {

// Own draws on top of mt19937_64: std:: distributions are implementation-defined, and the data set must be the
// same bytes with any standard library.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : gen_(seed) {}
  double uniform() { return static_cast<double>(gen_() >> 11) * (1.0 / 9007199254740992.0); }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  /** integer in [lo, hi] */
  int integer(int lo, int hi) { return lo + static_cast<int>(gen_() % static_cast<std::uint64_t>(hi - lo + 1)); }
  double log_uniform(double lo, double hi) { return std::exp(uniform(std::log(lo), std::log(hi))); }
  template <class T>
  const T& pick(const std::vector<T>& v) { return v[static_cast<std::size_t>(integer(0, static_cast<int>(v.size()) - 1))]; }
  /** index drawn with the given (unnormalised) weights */
  int weighted(const std::vector<double>& w) {
    double total = 0;
    for (double x : w) total += x;
    double r = uniform() * total;
    for (std::size_t i = 0; i < w.size(); ++i) {
      if (r < w[i]) return static_cast<int>(i);
      r -= w[i];
    }
    return static_cast<int>(w.size()) - 1;
  }

 private:
  std::mt19937_64 gen_;
};

GpuSpec gpu(const std::string& name, double fp16_tf, double fp32_tf, double mem_gb, const std::string& cap,
            const std::string& source) {
  GpuSpec g;
  g.name = name;
  g.fp16_flops = fp16_tf * 1e12;
  g.fp32_flops = fp32_tf * 1e12;
  g.memory_bytes = mem_gb * 1e9;
  g.capability = cap;
  g.source = source;
  return g;
}

bool is_datacentre_nvlink(const GpuSpec& g) {
  return g.name.find("V100") != std::string::npos || g.name.find("A100") != std::string::npos ||
         g.name.find("H100") != std::string::npos;
}

// Metro clusters where cloud regions sit (latitude, longitude in degrees).
struct Metro {
  const char* name;
  double lat_deg, lon_deg;
};
const Metro kMetros[] = {{"us-east", 39.0, -77.0}, {"us-west", 37.5, -122.0}, {"eu-central", 50.1, 8.7},
                         {"eu-west", 51.5, -0.1},  {"asia-east", 31.2, 121.5}, {"asia-north", 39.9, 116.4},
                         {"asia-se", 1.35, 103.8}, {"sa-east", -23.5, -46.6},  {"au-east", -33.9, 151.2},
                         {"me-central", 25.2, 55.3}};

double great_circle_m(double lat1, double lon1, double lat2, double lon2) {
  constexpr double kPi = 3.14159265358979323846, kEarthRadius_m = 6371e3;
  const double p1 = lat1 * kPi / 180, p2 = lat2 * kPi / 180, dp = p2 - p1, dl = (lon2 - lon1) * kPi / 180;
  const double a = std::sin(dp / 2) * std::sin(dp / 2) + std::cos(p1) * std::cos(p2) * std::sin(dl / 2) * std::sin(dl / 2);
  return 2 * kEarthRadius_m * std::asin(std::min(1.0, std::sqrt(a)));
}

void shrink_to_cap(PlatformSpec& p, int cap, int min_regions) {
  while (p.total_gpus() > cap) {
    // Count hosts per region; drop the last host of the fullest region (latest on ties).
    std::vector<int> count(p.regions.size(), 0);
    for (const HostSpec& h : p.hosts) count[h.region]++;
    int fullest = 0;
    for (int r = 0; r < static_cast<int>(count.size()); ++r)
      if (count[r] >= count[fullest]) fullest = r;
    if (count[fullest] > 1) {
      for (int i = static_cast<int>(p.hosts.size()) - 1; i >= 0; --i)
        if (p.hosts[i].region == fullest) {
          p.hosts.erase(p.hosts.begin() + i);
          break;
        }
    } else if (static_cast<int>(p.regions.size()) > min_regions) {
      const int last = static_cast<int>(p.regions.size()) - 1;
      p.hosts.erase(std::remove_if(p.hosts.begin(), p.hosts.end(), [&](const HostSpec& h) { return h.region == last; }),
                    p.hosts.end());
      p.regions.pop_back();
      p.wan.pop_back();
      for (auto& row : p.wan) row.pop_back();
    } else {
      auto it = std::max_element(p.hosts.begin(), p.hosts.end(),
                                 [](const HostSpec& a, const HostSpec& b) { return a.gpus < b.gpus; });
      if (it->gpus <= 1) return;  // cannot shrink further
      it->gpus /= 2;
    }
  }
}

}  // namespace

std::vector<GpuSpec> sampler_builtin_gpus() {
  // Dense tensor-core peaks from NVIDIA datasheets (no sparsity); fp32 = non-tensor FP32.
  return {gpu("V100-SXM2-32GB", 125, 15.7, 32, "7.0", "NVIDIA V100 datasheet"),
          gpu("T4", 65, 8.1, 16, "7.5", "NVIDIA T4 datasheet"),
          gpu("A10", 125, 31.2, 24, "8.6", "NVIDIA A10 datasheet"),
          gpu("RTX-3090", 71, 35.6, 24, "8.6", "NVIDIA Ampere GA102 whitepaper (fp16 tensor, fp32 accumulate)"),
          gpu("A100-SXM4-40GB", 312, 19.5, 40, "8.0", "NVIDIA A100 datasheet"),
          gpu("A100-SXM4-80GB", 312, 19.5, 80, "8.0", "NVIDIA A100 datasheet"),
          gpu("H100-SXM5-80GB", 989, 67, 80, "9.0", "NVIDIA H100 datasheet")};
}

bool memory_feasible(const Scenario& s) {
  const JobSpec& job = s.only_job();
  if (job.par.ranks() > s.platform.total_gpus()) return false;
  if (!job.check_memory) return true;
  const JobCost cost = compute_job_cost(job);
  std::vector<double> need;
  for (const StageCost& st : cost.stages) need.push_back(st.peak_memory_bytes);
  std::sort(need.rbegin(), need.rend());
  // The sets "GPUs that fit stage k" are nested (a threshold on memory), so Hall's condition reduces to prefixes.
  const int group = job.par.dp * job.par.tp;
  for (std::size_t j = 0; j < need.size(); ++j) {
    int fit = 0;
    for (const HostSpec& h : s.platform.hosts) fit += h.gpu.memory_bytes >= need[j] ? h.gpus : 0;
    if (fit < static_cast<int>(j + 1) * group) return false;
  }
  return true;
}

namespace {

void check_options(const SamplerOptions& opt) {
  if (opt.min_regions < 1 || opt.min_regions > opt.max_regions || opt.min_hosts_per_region < 1 ||
      opt.min_hosts_per_region > opt.max_hosts_per_region || opt.max_total_gpus < opt.min_total_gpus ||
      opt.min_total_gpus < 1)
    throw InputError("", 0, "sampler", "inconsistent sampler options (need 1 <= min <= max for regions, hosts, GPUs)");
}

// Regions at jittered metro locations; WAN latency from fibre distance (x 1.5-2.5 for routing, + 2 ms), bandwidth
// log-uniform 50 Mbps - 10 Gbps.
void sample_regions(Rng& rng, const SamplerOptions& opt, PlatformSpec& p) {
  const int R = rng.integer(opt.min_regions, opt.max_regions);
  std::vector<double> lat(R), lon(R);
  for (int r = 0; r < R; ++r) {
    const Metro& m = kMetros[rng.integer(0, static_cast<int>(std::size(kMetros)) - 1)];
    lat[r] = m.lat_deg + rng.uniform(-6, 6);
    lon[r] = m.lon_deg + rng.uniform(-8, 8);
    p.regions.push_back(std::string(m.name) + "-" + std::to_string(r));
  }
  p.wan.assign(R, std::vector<LinkSpec>(R));
  for (int a = 0; a < R; ++a)
    for (int b = a + 1; b < R; ++b) {
      LinkSpec l;
      const double fibre_s = great_circle_m(lat[a], lon[a], lat[b], lon[b]) / (2.0 / 3.0 * 299792458.0);
      l.latency_s = std::clamp(fibre_s * rng.uniform(1.5, 2.5) + 2e-3, 5e-3, 0.3);
      l.bandwidth_Bps = rng.log_uniform(50e6, 10e9) / 8.0;
      p.wan[a][b] = p.wan[b][a] = l;
    }
}

const std::vector<int> kGpuCounts = {1, 2, 4, 8};

// Hosts of every region (mostly the region's GPU type), then fitted into [min_total_gpus, max_total_gpus] and
// renamed densely.
void sample_hosts(Rng& rng, const SamplerOptions& opt, const std::vector<GpuSpec>& types, PlatformSpec& p) {
  const int R = static_cast<int>(p.regions.size());
  const std::vector<double> gpu_count_w = {0.1, 0.15, 0.3, 0.45};
  for (int r = 0; r < R; ++r) {
    const int region_type = rng.integer(0, static_cast<int>(types.size()) - 1);
    const double lan_Bps = rng.log_uniform(10e9, 100e9) / 8.0;
    const double lan_lat_s = rng.uniform(5e-6, 50e-6);
    const int hosts = rng.integer(opt.min_hosts_per_region, opt.max_hosts_per_region);
    for (int i = 0; i < hosts; ++i) {
      HostSpec h;
      h.name = p.regions[r] + "-h" + std::to_string(i);
      h.region = r;
      h.gpus = kGpuCounts[rng.weighted(gpu_count_w)];
      h.gpu = types[rng.uniform() < 0.25 ? rng.integer(0, static_cast<int>(types.size()) - 1) : region_type];
      h.host_link = LinkSpec{lan_Bps, lan_lat_s};
      const bool nvlink = h.gpus == 8 && is_datacentre_nvlink(h.gpu);
      h.intra_link = LinkSpec{nvlink ? rng.uniform(150e9, 300e9) : rng.uniform(12e9, 25e9), rng.uniform(1e-6, 5e-6)};
      p.hosts.push_back(h);
    }
  }
  shrink_to_cap(p, opt.max_total_gpus, opt.min_regions);
  while (p.total_gpus() < opt.min_total_gpus) {
    auto it = std::min_element(p.hosts.begin(), p.hosts.end(),
                               [](const HostSpec& a, const HostSpec& b) { return a.gpus < b.gpus; });
    // Doubling keeps GPUs per host a power of two; a doubling that would pass the cap is not made (the cap wins
    // over the wished-for minimum).
    if (it->gpus >= 8 || p.total_gpus() + it->gpus > opt.max_total_gpus) break;
    it->gpus *= 2;
  }
  // Renumber host names densely (shrinking may have removed some).
  std::vector<int> per_region(R, 0);
  for (HostSpec& h : p.hosts) h.name = p.regions[h.region] + "-h" + std::to_string(per_region[h.region]++);
}

// Up to 60 draws of a parallelism and batch for the model in sc.only_job().model, on at most max_gpus GPUs (0 = all);
// true when one fits (memory_feasible).
bool sample_parallelism(Rng& rng, Scenario& sc, int max_gpus) {
  JobSpec& job = sc.only_job();
  const ModelSpec& m = job.model;
  const int G = max_gpus > 0 ? std::min(max_gpus, sc.platform.total_gpus()) : sc.platform.total_gpus();
  int max_per_host = 1;
  for (const HostSpec& h : sc.platform.hosts) max_per_host = std::max(max_per_host, h.gpus);
  for (int attempt = 0; attempt < 60; ++attempt) {
    std::vector<int> tps;
    for (int t : {1, 2, 4, 8})
      if (t <= max_per_host && m.heads % t == 0 && t <= G) tps.push_back(t);
    Parallelism par;
    par.tp = rng.pick(tps);
    const int max_pp = std::min({16, m.layers, G / par.tp});
    par.pp = rng.integer(1, std::max(1, max_pp));
    const int target = std::max(1, static_cast<int>(rng.uniform(0.4, 1.0) * G));
    par.dp = std::max(1, target / (par.tp * par.pp));
    if (par.ranks() > G) continue;
    job.par = par;
    job.micro_batch = kGpuCounts[rng.integer(0, 2)];  // 1, 2 or 4 sequences
    const int m_batches = std::min(64, rng.integer(par.pp, 4 * par.pp));
    job.global_batch = par.dp * job.micro_batch * m_batches;
    if (memory_feasible(sc)) return true;
  }
  return false;
}

// Training settings, then a model and parallelism that fit the platform (on at most max_gpus GPUs, 0 = all),
// shrinking the model until one does.
void sample_job(Rng& rng, std::uint64_t seed, Scenario& sc, int max_gpus = 0) {
  JobSpec& job = sc.only_job();
  job.precision = rng.uniform() < 0.8 ? "fp16" : "bf16";
  job.schedule = rng.uniform() < 0.8 ? "1f1b" : "gpipe";
  const double cu = rng.uniform();
  job.collective = cu < 0.6 ? "ring" : (cu < 0.9 ? "hierarchical" : "tree");
  job.utilisation = rng.uniform(0.3, 0.55);
  job.iterations = 1;
  job.check_memory = true;
  const std::vector<int> hiddens = {1024, 1536, 2048, 2560, 3072, 4096, 5120, 6144, 8192};
  int layers = rng.integer(8, 96);
  int hidden_idx = rng.integer(0, static_cast<int>(hiddens.size()) - 1);
  for (int shrink = 0;; ++shrink) {
    ModelSpec& m = job.model;
    m.layers = layers;
    m.hidden = hiddens[hidden_idx];
    m.heads = m.hidden / (rng.uniform() < 0.5 ? 64 : 128);
    m.seq_len = rng.uniform() < 0.5 ? 1024 : 2048;
    m.vocab = 51200;
    m.name = "sampled-L" + std::to_string(m.layers) + "-H" + std::to_string(m.hidden);
    if (sample_parallelism(rng, sc, max_gpus)) return;
    // Nothing fits: a smaller model (terminates: 8 layers x 1024 hidden fits any catalog GPU with pp = 1).
    if (layers > 8) layers = std::max(8, layers / 2);
    else if (hidden_idx > 0) --hidden_idx;
    else if (shrink > 200)
      throw InputError("", 0, "sampler", "no job fits the sampled platform (seed " + std::to_string(seed) + ")");
  }
}

/** A scenario named prefix + seed with a platform drawn from rng (regions, then hosts); checks the options first. */
Scenario sampled_platform(Rng& rng, const SamplerOptions& opt, const std::string& prefix, std::uint64_t seed) {
  check_options(opt);
  const std::vector<GpuSpec> types = opt.gpu_types.empty() ? sampler_builtin_gpus() : opt.gpu_types;
  Scenario sc;
  sc.name = prefix + std::to_string(seed);
  sc.seed = seed;
  sample_regions(rng, opt, sc.platform);
  sample_hosts(rng, opt, types, sc.platform);
  sc.platform.wan_capacity = opt.wan_capacity;
  return sc;
}

/** GPU budgets of `jobs` jobs: together a fraction U(0.5, 0.9) of the platform's GPUs, split in random
 *  proportions, each at least 1. */
std::vector<int> job_budgets(Rng& rng, int jobs, int gpus) {
  std::vector<double> share(jobs);
  double sum = 0;
  for (double& w : share) sum += (w = rng.uniform(0.2, 1.0));
  const double total = rng.uniform(0.5, 0.9) * gpus;
  std::vector<int> out;
  for (double w : share) out.push_back(std::max(1, static_cast<int>(total * w / sum)));
  return out;
}

}  // namespace

Scenario sample_jobs_scenario(std::uint64_t seed, int jobs, const SamplerOptions& opt) {
  if (jobs < 2 || jobs > 8)
    throw InputError("", 0, "--jobs", "expected 2 to 8 jobs per cluster, got " + std::to_string(jobs));
  Rng rng(seed ^ fnv1a64("jobs_sampler"));
  Scenario sc = sampled_platform(rng, opt, "sampled-jobs-", seed);
  if (sc.platform.total_gpus() < jobs)  // every job needs a GPU of its own; fewer jobs would not be what was asked
    throw InputError("", 0, "sampler", "the cluster sampled from seed " + std::to_string(seed) + " has " +
                                           std::to_string(sc.platform.total_gpus()) + " GPUs, fewer than its " +
                                           std::to_string(jobs) + " jobs");
  // Each job is drawn into a one-job scenario on the platform (its job carried from one draw to the next).
  Scenario draw = sc;
  sc.jobs_listed = true;
  for (int attempt = 0; attempt < 50; ++attempt) {
    const std::vector<int> budgets = job_budgets(rng, jobs, sc.platform.total_gpus());
    sc.jobs.clear();
    for (std::size_t k = 0; k < budgets.size(); ++k) {
      sample_job(rng, seed, draw, budgets[k]);
      draw.only_job().name = "job" + std::to_string(k);
      sc.jobs.push_back(draw.only_job());
    }
    int misfit = -1;
    if (total_ranks(sc) <= sc.platform.total_gpus() && memory_fit_problem(sc, misfit).empty()) return sc;
  }
  throw InputError("", 0, "sampler", "no set of jobs fits the sampled platform together (seed " +
                                         std::to_string(seed) + ")");
}

Scenario sample_scenario(std::uint64_t seed, const SamplerOptions& opt) {
  Rng rng(seed ^ fnv1a64("scenario_sampler"));
  Scenario sc = sampled_platform(rng, opt, "sampled-", seed);
  sample_job(rng, seed, sc);
  return sc;
}

}  // namespace hulk
