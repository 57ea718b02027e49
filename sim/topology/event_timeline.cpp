#include "sim/topology/event_timeline.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <utility>

namespace hulk {

namespace {

bool is_link_event(const EventSpec& e) {
  return e.kind == EventSpec::Kind::link_change || e.kind == EventSpec::Kind::link_down;
}
bool sets_bandwidth(const EventSpec& e) {
  return e.kind == EventSpec::Kind::link_down ||
         (e.kind == EventSpec::Kind::link_change && (e.bandwidth_factor > 0 || e.bandwidth_Bps > 0));
}
bool sets_latency(const EventSpec& e) {
  return e.kind == EventSpec::Kind::link_change && e.latency_s >= 0;
}

/** The event's window relative to the origin, or false when it ended before the origin. */
bool window(const EventSpec& e, double origin_s, double& start, double& end) {
  end = e.duration_s == std::numeric_limits<double>::infinity() ? e.duration_s : e.at_s + e.duration_s - origin_s;
  start = std::max(0.0, e.at_s - origin_s);
  return end > start;
}

/** Among the events (indices into `events`) in force at t (window start <= t < end), the one that `sets` with the
 *  latest `at`, the last written on a tie; -1 if none. Asked at non-decreasing times, it keeps the events in force
 *  in an ordered set, so a trace of n rows costs O(n log n) (scanning every event at every time was O(n^2): 4 min
 *  for 100,000 rows). */
class InForce {
 public:
  template <typename Pred>
  InForce(const std::vector<EventSpec>& events, const std::vector<int>& which, double origin_s, Pred sets) {
    for (int i : which) {
      double start = 0, end = 0;
      if (sets(events[i]) && window(events[i], origin_s, start, end))
        windows_.push_back({start, end, events[i].at_s, i});
    }
    by_start_.resize(windows_.size());
    for (std::size_t k = 0; k < windows_.size(); ++k) by_start_[k] = k;
    by_end_ = by_start_;
    std::sort(by_start_.begin(), by_start_.end(),
              [&](std::size_t a, std::size_t b) { return windows_[a].start < windows_[b].start; });
    std::sort(by_end_.begin(), by_end_.end(),
              [&](std::size_t a, std::size_t b) { return windows_[a].end < windows_[b].end; });
  }

  /** The event in force at t (-1 = none); t never decreases from one call to the next. */
  int at(double t) {
    for (; next_start_ < by_start_.size() && windows_[by_start_[next_start_]].start <= t; ++next_start_) {
      const Window& w = windows_[by_start_[next_start_]];
      if (t < w.end) active_.insert({w.at_s, w.index});
    }
    for (; next_end_ < by_end_.size() && windows_[by_end_[next_end_]].end <= t; ++next_end_) {
      const Window& w = windows_[by_end_[next_end_]];
      active_.erase({w.at_s, w.index});
    }
    return active_.empty() ? -1 : active_.rbegin()->second;
  }

 private:
  struct Window {
    double start, end, at_s;
    int index;
  };
  std::vector<Window> windows_;
  std::vector<std::size_t> by_start_, by_end_;
  std::size_t next_start_ = 0, next_end_ = 0;
  std::set<std::pair<double, int>> active_;  ///< (at, index) of the events in force: the last is the answer
};

/** 0 and every start and (finite) end of the given events after the origin, sorted, without repeats: the times at
 *  which what is in force can change. */
std::vector<double> boundaries(const std::vector<EventSpec>& events, const std::vector<int>& which, double origin_s) {
  std::vector<double> times{0.0};
  for (int i : which) {
    double start = 0, end = 0;
    if (!window(events[i], origin_s, start, end)) continue;
    times.push_back(start);
    if (end < std::numeric_limits<double>::infinity()) times.push_back(end);
  }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  return times;
}

}  // namespace

std::vector<int> event_links(const RouteModel& model, const EventTarget& target) {
  std::vector<int> out;
  if (model.from_xml() || target.kind == EventTarget::Kind::host) return out;
  for (int id = 0; id < model.links(); ++id) {
    const ModelLink& l = model.link(id);
    bool hit = false;
    if (target.kind == EventTarget::Kind::wan_pair) {
      const int a = target.region_a, b = target.region_b;
      if (l.kind == LinkKind::wan) hit = (l.a == a && l.b == b) || (l.a == b && l.b == a);
      if (l.kind == LinkKind::wan_host) {
        const int from = model.region_of(l.a);
        hit = (from == a && l.b == b) || (from == b && l.b == a);
      }
    } else {  // host_link
      hit = (l.kind == LinkKind::nic_up || l.kind == LinkKind::nic_down || l.kind == LinkKind::wan_host) &&
            l.a == target.host;
    }
    if (hit) out.push_back(id);
  }
  return out;
}

std::vector<LinkChange> link_timeline(const RouteModel& model, const std::vector<EventSpec>& events,
                                      double origin_s) {
  std::map<int, std::vector<int>> events_of_link;  // link id -> event indices, written order
  for (int i = 0; i < static_cast<int>(events.size()); ++i)
    if (is_link_event(events[i]))
      for (int id : event_links(model, events[i].target)) events_of_link[id].push_back(i);

  std::vector<LinkChange> out;
  for (const auto& [id, on_link] : events_of_link) {
    const std::vector<double> times = boundaries(events, on_link, origin_s);
    const ModelLink& own = model.link(id);
    LinkChange state{0, id, own.bandwidth_Bps, own.latency_s};
    InForce downs(events, on_link, origin_s, [](const EventSpec& e) { return e.kind == EventSpec::Kind::link_down; });
    InForce bandwidths(events, on_link, origin_s, sets_bandwidth), latencies(events, on_link, origin_s, sets_latency);
    for (double t : times) {
      LinkChange next{t, id, own.bandwidth_Bps, own.latency_s};
      const int down = downs.at(t);
      const int bw = bandwidths.at(t);
      if (down >= 0) {
        next.bandwidth_Bps = kDownBandwidthBps;
      } else if (bw >= 0) {
        const EventSpec& e = events[bw];
        next.bandwidth_Bps = e.bandwidth_Bps > 0 ? e.bandwidth_Bps : own.bandwidth_Bps * e.bandwidth_factor;
      }
      const int lat = latencies.at(t);
      if (lat >= 0) next.latency_s = events[lat].latency_s;
      if (next.bandwidth_Bps != state.bandwidth_Bps || next.latency_s != state.latency_s) out.push_back(next);
      state = next;
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const LinkChange& x, const LinkChange& y) { return x.at_s < y.at_s; });
  return out;
}

std::vector<std::vector<SpeedChange>> speed_timeline(int hosts, const std::vector<EventSpec>& events,
                                                     double origin_s) {
  std::vector<std::vector<int>> events_of_host(hosts);
  for (int i = 0; i < static_cast<int>(events.size()); ++i)
    if (events[i].kind == EventSpec::Kind::host_speed && events[i].target.host >= 0 &&
        events[i].target.host < hosts)
      events_of_host[events[i].target.host].push_back(i);
  std::vector<std::vector<SpeedChange>> out(hosts);
  for (int h = 0; h < hosts; ++h) {
    const std::vector<double> times = boundaries(events, events_of_host[h], origin_s);
    double factor = 1;
    InForce speeds(events, events_of_host[h], origin_s, [](const EventSpec&) { return true; });
    for (double t : times) {
      const int e = speeds.at(t);
      const double next = e >= 0 ? events[e].speed_factor : 1.0;
      if (next != factor) out[h].push_back({t, next});
      factor = next;
    }
  }
  return out;
}

int next_failure(const std::vector<EventSpec>& events, const std::vector<bool>& hosts_used, double origin_s,
                 const std::vector<int>& handled) {
  int best = -1;
  for (int i = 0; i < static_cast<int>(events.size()); ++i) {
    const EventSpec& e = events[i];
    // A failure before the origin that is still in force then (during a restart, say) happens at the origin.
    if (e.kind != EventSpec::Kind::host_fail || (e.at_s < origin_s && !e.active_at(origin_s))) continue;
    if (std::find(handled.begin(), handled.end(), i) != handled.end()) continue;
    if (e.target.host < 0 || e.target.host >= static_cast<int>(hosts_used.size()) || !hosts_used[e.target.host])
      continue;
    if (best < 0 || std::max(e.at_s, origin_s) < std::max(events[best].at_s, origin_s)) best = i;
  }
  return best;
}

}  // namespace hulk
