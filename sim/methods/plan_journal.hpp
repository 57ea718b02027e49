#pragma once
/** @file plan_journal.hpp
 *  @brief What lets an interrupted `hulk plan --out DIR` resume: each expensive step's result (a layout's greedy
 *  screening, a SimGrid check, a method's placement) is appended to DIR/plan-journal.tsv as it finishes; a plan of
 *  the same scenario and options reads it back instead of recomputing those steps. Numbers are written exactly
 *  (hexadecimal floating point), so a resumed plan takes the same decisions and writes the same bytes as one that
 *  ran through. The first line identifies the plan (a hash of its scenario file, overrides and options); a journal
 *  of another plan is started anew. */
#include <fstream>
#include <map>
#include <memory>
#include <string>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief The journal of a plan written into `dir`: DIR/plan-journal.tsv (write_plan deletes it once the plan's
 *  files are written). */
std::string plan_journal_path(const std::string& dir);

/** @brief One finished step. */
struct JournalEntry {
  std::string method;
  double estimate_s = 0;
  double simgrid_s = 0;
  Placement placement;
  std::string note;  ///< why the step failed ("" if it did not)
};

/** @brief The journal file of one plan (see file comment); inactive with an empty path. */
class PlanJournal {
 public:
  PlanJournal() = default;
  /** @brief Reads `path` if its first line names `identity` (keeping every complete line), else starts it anew
   *  (the file is rewritten at the first record()). */
  PlanJournal(const std::string& path, const std::string& identity);
  /** @brief The entry recorded under key, or nullptr. */
  const JournalEntry* find(const std::string& key) const;
  /** @brief Appends an entry (flushed at once); entries whose note holds a tab or a line break are not kept (the
   *  step runs again on resume). No-op when inactive. @throws InputError if the file cannot be written. */
  void record(const std::string& key, const JournalEntry& entry);
  /** @brief Entries read back from an earlier run. */
  int resumed() const { return resumed_; }

 private:
  /** Creates the file with the header and the entries read back. */
  void open();
  /** One entry's line, flushed. */
  void write(const std::string& key, const JournalEntry& entry);
  std::string path_, header_;
  std::map<std::string, JournalEntry> entries_;
  std::unique_ptr<std::ofstream> out_;
  int resumed_ = 0;
};

}  // namespace hulk
