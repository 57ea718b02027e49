#include "sim/core/jobs.hpp"

#include <stdexcept>

namespace hulk {

int job_count(const Scenario& s) { return static_cast<int>(s.jobs.size()); }

const JobSpec& job_at(const Scenario& s, int j) {
  if (j < 0 || j >= job_count(s)) throw std::out_of_range("job index " + std::to_string(j) + " out of range");
  return s.jobs[j];
}

int job_rank_offset(const Scenario& s, int j) {
  int offset = 0;
  for (int k = 0; k < j; ++k) offset += job_at(s, k).par.ranks();
  return offset;
}

int total_ranks(const Scenario& s) { return job_rank_offset(s, job_count(s)); }

int job_of_rank(const Scenario& s, int global_rank) {
  int end = 0;
  for (int j = 0; j < job_count(s); ++j) {
    end += job_at(s, j).par.ranks();
    if (global_rank < end) return j;
  }
  throw std::out_of_range("rank " + std::to_string(global_rank) + " is beyond every job's ranks");
}

Scenario job_view(const Scenario& s, int j) {
  if (!names_jobs(s)) return s;
  Scenario v;
  v.name = s.name;
  v.file = s.file;
  v.seed = s.seed;
  v.platform = s.platform;
  v.network = s.network;
  v.jobs = {s.jobs.at(j)};
  v.placement = s.placement;
  return v;
}

Placement job_slice(const Scenario& s, const Placement& placement, int j) {
  const int begin = job_rank_offset(s, j), n = job_at(s, j).par.ranks();
  Placement out;
  if (static_cast<int>(placement.gpu_of_rank.size()) < begin + n) return out;
  out.gpu_of_rank.assign(placement.gpu_of_rank.begin() + begin, placement.gpu_of_rank.begin() + begin + n);
  return out;
}

Placement concat_placements(const std::vector<Placement>& per_job) {
  Placement out;
  for (const Placement& p : per_job) out.gpu_of_rank.insert(out.gpu_of_rank.end(), p.gpu_of_rank.begin(),
                                                           p.gpu_of_rank.end());
  return out;
}

double weighted_objective(const Scenario& s, const std::vector<double>& iteration_times_s) {
  double sum = 0, weights = 0;
  for (int j = 0; j < job_count(s); ++j) {
    const double w = job_at(s, j).weight;
    sum += w * iteration_times_s.at(j);
    weights += w;
  }
  return sum / weights;
}

std::string job_label(const Scenario& s, int j) {
  return names_jobs(s) ? "job '" + job_at(s, j).name + "'" : std::string("the job");
}

std::string parallelism_text(const JobSpec& job) {
  return "dp " + std::to_string(job.par.dp) + " x tp " + std::to_string(job.par.tp) + " x pp " +
         std::to_string(job.par.pp);
}

}  // namespace hulk
