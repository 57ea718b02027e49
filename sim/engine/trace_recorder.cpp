#include "sim/engine/trace_recorder.hpp"

#include <tuple>

namespace hulk {

bool EventOrder::operator()(const RawEvent& a, const RawEvent& b) const {
  return std::tie(a.iteration, a.start_s, a.end_s, a.src, a.dst, a.tag.kind, a.tag.stage, a.tag.dp, a.tag.tp,
                  a.tag.mb, a.tag.layer, a.tag.idx, a.tag.dir) <
         std::tie(b.iteration, b.start_s, b.end_s, b.src, b.dst, b.tag.kind, b.tag.stage, b.tag.dp, b.tag.tp,
                  b.tag.mb, b.tag.layer, b.tag.idx, b.tag.dir);
}

TraceRecorder::TraceRecorder(int ranks, std::size_t buffer_records, const std::string& spill_dir)
    : events_(buffer_records, spill_dir), spans_(buffer_records, spill_dir), open_(ranks), next_seq_(ranks, 0) {
  for (SpanRecord& s : open_) s.name_id = -1;
}

int TraceRecorder::intern(std::map<std::string, int>& ids, std::vector<std::string>& names, const std::string& s) {
  const auto it = ids.find(s);
  if (it != ids.end()) return it->second;
  names.push_back(s);
  return ids[s] = static_cast<int>(names.size()) - 1;
}

void TraceRecorder::close_open_span(int rank) {
  SpanRecord& open = open_[rank];
  if (open.name_id < 0) return;
  spans_.push(open);
  open.name_id = -1;
}

void TraceRecorder::span(int rank, const std::string& name, const char* cat, double start_s, double end_s) {
  if (end_s <= start_s) return;
  SpanRecord& open = open_[rank];
  // Consecutive pieces of one activity (e.g. the layer-by-layer compute of one forward) become one span.
  if (open.name_id >= 0 && open.end_s == start_s && names_[open.name_id] == name && cats_[open.cat_id] == cat) {
    open.end_s = end_s;
    return;
  }
  close_open_span(rank);
  open.rank = rank;
  open.name_id = intern(name_ids_, names_, name);
  open.cat_id = intern(cat_ids_, cats_, cat);
  open.seq = next_seq_[rank]++;
  open.start_s = start_s;
  open.end_s = end_s;
}

void TraceRecorder::drain_spans(const std::function<void(const Span&)>& visit) {
  for (int r = 0; r < static_cast<int>(open_.size()); ++r) close_open_span(r);
  spans_.drain([&](const SpanRecord& s) {
    visit(Span{s.rank, names_[s.name_id], cats_[s.cat_id], s.start_s, s.end_s});
  });
}

CommEvent to_comm_event(const RawEvent& e, const std::vector<int>& host_of_rank) {
  CommEvent c;
  c.iteration = e.iteration;
  c.kind = e.tag.kind_name();
  c.collective = e.tag.id();
  c.src_rank = e.src;
  c.dst_rank = e.dst;
  c.src_host = host_of_rank[e.src];
  c.dst_host = host_of_rank[e.dst];
  c.bytes = e.bytes;
  c.start_s = e.start_s;
  c.end_s = e.end_s;
  return c;
}

}  // namespace hulk
