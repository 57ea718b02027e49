// The placement picture of the HTML report (html_report.hpp): regions stacked top to bottom, their hosts in rows
// inside, a cell per GPU coloured by pipeline stage.
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "sim/core/jobs.hpp"
#include "sim/report/html_report.hpp"
#include "sim/workload/plan.hpp"

namespace hulk {
namespace {

/** Light fills a black label reads on, one per pipeline stage (cycled past ten). */
const char* const kStageColours[] = {"#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5",
                                     "#c49c94", "#f7b6d2", "#dbdb8d", "#9edae5", "#b5cf6b"};
constexpr int kColours = sizeof(kStageColours) / sizeof(kStageColours[0]);

/** Sizes in pixels. Past kLabelledGpus GPUs the cells shrink to coloured squares (labels in their titles): a
 *  1024-GPU picture stays about a screen wide. */
struct Geometry {
  int cell_w, cell_h, gap, gpus_per_row, max_width, host_title, region_title;
  bool labels;
};
constexpr int kLabelledGpus = 256;
Geometry geometry_for(int gpus) {
  if (gpus <= kLabelledGpus) return {54, 34, 4, 8, 1100, 16, 22, true};
  return {14, 14, 2, 16, 1100, 0, 22, false};
}

/** What one GPU runs: its global rank and coordinates, or nothing. */
struct CellRank {
  int rank = -1, job = 0;
  RankCoord coord;
};

std::map<GpuSlot, CellRank> ranks_by_gpu(const Scenario& s, const Placement& placement) {
  std::map<GpuSlot, CellRank> out;
  for (int r = 0; r < static_cast<int>(placement.gpu_of_rank.size()); ++r) {
    CellRank c;
    c.rank = r;
    c.job = names_jobs(s) ? job_of_rank(s, r) : 0;
    const int local = r - (names_jobs(s) ? job_rank_offset(s, c.job) : 0);
    c.coord = ParallelPlan(job_at(s, c.job).par).coord_of(local);
    out[placement.gpu_of_rank[r]] = c;
  }
  return out;
}

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

std::string rect(double x, double y, double w, double h, const std::string& fill, const std::string& extra) {
  return "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(w) + "\" height=\"" + num(h) +
         "\" fill=\"" + fill + "\" " + extra + "/>";
}

std::string text(double x, double y, const std::string& cls, const std::string& body) {
  return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" class=\"" + cls + "\">" + html_escape(body) + "</text>";
}

/** One GPU cell at (x, y). */
std::string gpu_cell(const Scenario& s, const Geometry& g, double x, double y, const std::string& host, int slot,
                     const CellRank* c) {
  std::string title = host + " GPU " + std::to_string(slot);
  if (c == nullptr)
    return "<g>" + rect(x, y, g.cell_w, g.cell_h, "#f4f4f4", "class=\"idle\"") + "<title>" + html_escape(title) +
           ": idle</title></g>";
  const std::string job = names_jobs(s) ? "j" + std::to_string(c->job + 1) + " " : "";
  title += ": " + (names_jobs(s) ? job_label(s, c->job) + " " : std::string()) + "rank " + std::to_string(c->rank) +
           ", stage " + std::to_string(c->coord.pp) + ", replica " + std::to_string(c->coord.dp) + ", tp " +
           std::to_string(c->coord.tp);
  std::string out = "<g class=\"gpu\">" + rect(x, y, g.cell_w, g.cell_h, kStageColours[c->coord.pp % kColours],
                                               "class=\"cell\"");
  if (g.labels) {
    out += text(x + g.cell_w / 2.0, y + 14, "stage", job + "s" + std::to_string(c->coord.pp));
    out += text(x + g.cell_w / 2.0, y + 27, "coord",
                "r" + std::to_string(c->coord.dp) + " t" + std::to_string(c->coord.tp));
  }
  return out + "<title>" + html_escape(title) + "</title></g>";
}

/** The hosts of each region, in the platform's order. */
std::vector<std::vector<int>> hosts_by_region(const PlatformSpec& p) {
  std::vector<std::vector<int>> out(std::max<std::size_t>(1, p.regions.size()));
  for (int h = 0; h < static_cast<int>(p.hosts.size()); ++h)
    out[std::min<std::size_t>(p.hosts[h].region, out.size() - 1)].push_back(h);
  return out;
}

/** The legend row: one swatch per stage of the deepest pipeline, and idle. Advances y; widens width to fit. */
std::string legend(const Scenario& s, double& y, double& width) {
  int stages = 1;
  for (int j = 0; j < job_count(s); ++j) stages = std::max(stages, job_at(s, j).par.pp);
  const int shown = std::min(stages, kColours);
  std::string out;
  double x = 0;
  for (int k = 0; k < shown; ++k, x += 76)
    out += rect(x, y, 14, 14, kStageColours[k], "class=\"cell\"") +
           text(x + 18, y + 11, "legend", "stage " + std::to_string(k));
  out += rect(x, y, 14, 14, "#f4f4f4", "class=\"idle\"") + text(x + 18, y + 11, "legend", "idle");
  x += 60;
  if (stages > kColours) {
    out += text(x, y + 11, "legend", "(colours repeat every 10 stages)");
    x += 220;
  }
  width = std::max(width, x);
  y += 24;
  return out;
}

}  // namespace

std::string placement_svg(const Scenario& s, const Placement& placement) {
  const PlatformSpec& p = s.platform;
  const Geometry g = geometry_for(p.total_gpus());
  const std::map<GpuSlot, CellRank> ranks = ranks_by_gpu(s, placement);
  double y = 0, width = 0;
  std::string body = legend(s, y, width);
  const std::vector<std::vector<int>> regions = hosts_by_region(p);
  for (std::size_t r = 0; r < regions.size(); ++r) {
    int most_gpus = 1;
    for (int h : regions[r]) most_gpus = std::max(most_gpus, p.hosts[h].gpus);
    const int cols = std::min(most_gpus, g.gpus_per_row), rows = (most_gpus + cols - 1) / cols;
    const double host_w = cols * (g.cell_w + g.gap) + g.gap, host_h = g.host_title + rows * (g.cell_h + g.gap) + g.gap;
    const int per_row = std::max(1, static_cast<int>((g.max_width - 2 * g.gap) / (host_w + g.gap)));
    const int host_rows = (static_cast<int>(regions[r].size()) + per_row - 1) / per_row;
    const int in_row = std::min<int>(per_row, static_cast<int>(regions[r].size()));
    const double region_w = 2 * g.gap + std::max(1, in_row) * (host_w + g.gap) - g.gap;
    const double region_h = g.region_title + host_rows * (host_h + g.gap) + g.gap;
    const std::string name = r < p.regions.size() ? p.regions[r] : std::string("hosts");
    body += "<g class=\"region\">" + rect(0.5, y + 0.5, std::max(region_w, 160.0), region_h, "#ffffff",
                                          "class=\"region-box\"");
    const std::string gpu = regions[r].empty() ? std::string() : ", " + p.hosts[regions[r][0]].gpu.name;
    body += text(g.gap + 2, y + 16, "region-name",
                 name + " (" + std::to_string(regions[r].size()) + " hosts" + gpu + ")");
    for (std::size_t i = 0; i < regions[r].size(); ++i) {
      const HostSpec& host = p.hosts[regions[r][i]];
      const double hx = g.gap + (i % per_row) * (host_w + g.gap);
      const double hy = y + g.region_title + (i / per_row) * (host_h + g.gap);
      body += "<g class=\"host\">" + rect(hx, hy, host_w, host_h, "#fafafa", "class=\"host-box\"");
      if (g.host_title > 0) body += text(hx + 4, hy + 12, "host-name", host.name);
      for (int slot = 0; slot < host.gpus; ++slot) {
        const auto it = ranks.find(GpuSlot{regions[r][i], slot});
        const double cx = hx + g.gap + (slot % cols) * (g.cell_w + g.gap);
        const double cy = hy + g.host_title + (slot / cols) * (g.cell_h + g.gap);
        body += gpu_cell(s, g, cx, cy, host.name, slot, it == ranks.end() ? nullptr : &it->second);
      }
      body += "</g>";
    }
    body += "</g>";
    width = std::max(width, std::max(region_w, 160.0) + 1);
    y += region_h + 8;
  }
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"placement\" width=\"" + num(width) + "\" height=\"" +
         num(y) + "\" viewBox=\"0 0 " + num(width) + " " + num(y) + "\" role=\"img\">" + body + "</svg>";
}

}  // namespace hulk
