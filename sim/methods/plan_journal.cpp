#include "sim/methods/plan_journal.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <vector>

#include "sim/core/errors.hpp"

namespace hulk {
namespace {

const char* kMagic = "hulk-plan-journal 1 ";

/** Exact text of a double: hexadecimal floating point ("nan", "inf" as printf writes them). */
std::string exact(double v) {
  char t[64];
  std::snprintf(t, sizeof t, "%a", v);
  return t;
}

std::string placement_text(const Placement& p) {
  if (p.gpu_of_rank.empty()) return "-";
  std::string out;
  for (const GpuSlot& g : p.gpu_of_rank)
    out += (out.empty() ? "" : " ") + std::to_string(g.host) + "." + std::to_string(g.slot);
  return out;
}

/** Splits on tabs. */
std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::string f;
  std::istringstream in(line);
  while (std::getline(in, f, '\t')) out.push_back(f);
  if (!line.empty() && line.back() == '\t') out.emplace_back();
  return out;
}

/** An entry from its fields (key, method, estimate, simgrid, placement, note); false if the line is damaged. */
bool parse_entry(const std::vector<std::string>& f, JournalEntry& e) {
  if (f.size() != 6) return false;
  char* end = nullptr;
  e.method = f[1];
  e.estimate_s = std::strtod(f[2].c_str(), &end);
  if (*end != '\0') return false;
  e.simgrid_s = std::strtod(f[3].c_str(), &end);
  if (*end != '\0') return false;
  if (f[4] != "-") {
    std::istringstream in(f[4]);
    std::string slot;
    while (in >> slot) {
      GpuSlot g;
      if (std::sscanf(slot.c_str(), "%d.%d", &g.host, &g.slot) != 2) return false;
      e.placement.gpu_of_rank.push_back(g);
    }
  }
  e.note = f[5];
  return true;
}

}  // namespace

std::string plan_journal_path(const std::string& dir) { return dir + "/plan-journal.tsv"; }

PlanJournal::PlanJournal(const std::string& path, const std::string& identity) {
  const std::string header = kMagic + identity;
  bool same = false;
  {
    std::ifstream in(path);
    std::string line;
    same = in && std::getline(in, line) && line == header;
    // Only complete lines (ending in a line break) count: a write cut short by the interruption is dropped.
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::size_t start = 0;
    for (std::size_t nl; same && (nl = text.find('\n', start)) != std::string::npos; start = nl + 1) {
      const std::vector<std::string> f = fields(text.substr(start, nl - start));
      JournalEntry e;
      if (!f.empty() && parse_entry(f, e) && entries_.emplace(f[0], e).second) ++resumed_;
    }
  }
  path_ = path;
  header_ = header;
}

void PlanJournal::open() {
  // Created at the first step, so that a plan refused before any step leaves no folder behind; rewritten with the
  // entries read back, so that a damaged tail does not sit before the new lines.
  std::error_code ignored;  // a folder that cannot be made fails the open below, with the path
  std::filesystem::create_directories(std::filesystem::path(path_).parent_path(), ignored);
  out_ = std::make_unique<std::ofstream>(path_, std::ios::trunc);
  if (!*out_) throw InputError(path_, 0, "--out", "cannot write the plan's journal (expected a writable folder)");
  *out_ << header_ << "\n";
  for (const auto& [key, e] : entries_) write(key, e);
}

const JournalEntry* PlanJournal::find(const std::string& key) const {
  const auto it = entries_.find(key);
  return it == entries_.end() ? nullptr : &it->second;
}

void PlanJournal::record(const std::string& key, const JournalEntry& e) {
  if (path_.empty() || e.note.find_first_of("\t\n") != std::string::npos) return;
  if (!out_) open();
  entries_[key] = e;
  write(key, e);
}

void PlanJournal::write(const std::string& key, const JournalEntry& e) {
  *out_ << key << "\t" << e.method << "\t" << exact(e.estimate_s) << "\t" << exact(e.simgrid_s) << "\t"
        << placement_text(e.placement) << "\t" << e.note << "\n"
        << std::flush;
}

}  // namespace hulk
