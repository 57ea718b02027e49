#pragma once
/** @file trace_recorder.hpp
 *  @brief What a simulation records for comm.csv and trace.json: every message (RawEvent) and every GPU's busy
 *  spans, kept in bounded memory. Both are pushed into spill sorters (sim/core/spill_sorter.hpp) as they happen,
 *  so a run of tens of millions of messages holds a few tens of MB of them in memory, not gigabytes; at the end
 *  they come out in the files' deterministic order, byte for byte what sorting everything in memory gave. */
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "sim/core/sim_result.hpp"
#include "sim/core/spill_sorter.hpp"
#include "sim/engine/sg_endpoint.hpp"

namespace hulk {

/** @brief The deterministic total order of comm.csv rows: by iteration and time, then endpoints, then tag. */
struct EventOrder {
  bool operator()(const RawEvent& a, const RawEvent& b) const;
};

/** @brief A span as a plain record: name and category are indices into the recorder's string tables, `seq`
 *  numbers the rank's spans in the order they were recorded. */
struct SpanRecord {
  int rank = 0;
  int name_id = 0;
  int cat_id = 0;
  long long seq = 0;
  double start_s = 0, end_s = 0;
};

/** @brief trace.json's order of spans: rank by rank, each rank's in the order they happened. */
struct SpanOrder {
  bool operator()(const SpanRecord& a, const SpanRecord& b) const {
    return a.rank != b.rank ? a.rank < b.rank : a.seq < b.seq;
  }
};

/** @brief Collects the messages and spans of one simulation. */
class TraceRecorder {
 public:
  /** @param ranks number of ranks, @param buffer_records records of each kind kept in memory before a sorted run
   *  goes to disk, @param spill_dir folder of the (anonymous) spill files, "" = $TMPDIR or /tmp. */
  explicit TraceRecorder(int ranks, std::size_t buffer_records = 1 << 18, const std::string& spill_dir = "");

  /** @brief Records one message as its receiver had it. */
  void message(const RawEvent& e) { events_.push(e); }

  /** @brief Records a busy span of `rank`, merging it into the rank's previous span when it continues it (same
   *  name and category, starting where that one ended). Spans of zero or negative length are dropped. */
  void span(int rank, const std::string& name, const char* cat, double start_s, double end_s);

  /** @brief Visits every message in EventOrder, then forgets them. */
  void drain_events(const std::function<void(const RawEvent&)>& visit) { events_.drain(visit); }

  /** @brief Visits every span in SpanOrder, then forgets them. */
  void drain_spans(const std::function<void(const Span&)>& visit);

 private:
  int intern(std::map<std::string, int>& ids, std::vector<std::string>& names, const std::string& s);
  void close_open_span(int rank);

  SpillSorter<RawEvent, EventOrder> events_;
  SpillSorter<SpanRecord, SpanOrder> spans_;
  std::vector<SpanRecord> open_;   ///< per rank, the span that may still be extended (name_id < 0: none)
  std::vector<long long> next_seq_;
  std::map<std::string, int> name_ids_, cat_ids_;
  std::vector<std::string> names_, cats_;
};

/** @brief A recorded message as a comm.csv row (collective id rendered, ranks mapped to hosts). */
CommEvent to_comm_event(const RawEvent& e, const std::vector<int>& host_of_rank);

}  // namespace hulk
