#include "sim/engine/disturbances.hpp"

#include <cmath>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <simgrid/kernel/ProfileBuilder.hpp>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

#include "sim/topology/event_timeline.hpp"
#include "sim/topology/route_model.hpp"

namespace hulk {

namespace sg4 = simgrid::s4u;

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

/** A straggler's speed as a SimGrid speed profile: dated fractions of the host's peak (SimGrid's availability
 *  profiles), not repeated. */
void set_speed_profiles(const Scenario& scenario, SgPlatform& sg, double origin_s) {
  const auto speeds = speed_timeline(static_cast<int>(sg.hosts.size()), scenario.events, origin_s);
  for (std::size_t h = 0; h < speeds.size(); ++h) {
    if (speeds[h].empty()) continue;
    std::ostringstream text;
    text.precision(17);
    if (speeds[h].front().at_s > 0) text << "0 1\n";
    for (const SpeedChange& c : speeds[h]) text << c.at_s << " " << c.factor << "\n";
    sg.hosts[h]->set_speed_profile(simgrid::kernel::profile::ProfileBuilder::from_string(
        "speed:" + scenario.platform.hosts[h].name, text.str(), -1));
  }
}

/** Route latencies the receiver applies, kept current as link latencies change: a route's latency is its own plus
 *  the change of each link on its path. */
class RouteLatencies {
 public:
  RouteLatencies(std::shared_ptr<const RouteModel> model_ptr, SgPlatform& sg, const std::vector<LinkChange>& changes)
      : model_(std::move(model_ptr)), sg_(&sg), own_(sg.route_latency_s), delta_(model_->links(), 0.0) {
    const RouteModel& model = *model_;
    std::vector<bool> touched(model.links(), false);
    for (const LinkChange& c : changes) touched[c.link] = true;
    routes_of_link_.resize(model.links());
    const int n = model.hosts();
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) {
        if (a == b) continue;
        const Route& r = model.route(a, b);
        for (int i = 0; i < r.n_path; ++i)
          if (touched[r.path[i]]) routes_of_link_[r.path[i]].push_back(a * n + b);
      }
  }
  void set(int link, double latency_s) {
    delta_[link] = latency_s - model_->link(link).latency_s;
    const int n = model_->hosts();
    for (int ab : routes_of_link_[link]) {
      const Route& r = model_->route(ab / n, ab % n);
      double sum = own_[ab];
      for (int i = 0; i < r.n_path; ++i) sum += delta_[r.path[i]];
      sg_->route_latency_s[ab] = sum;
    }
  }

 private:
  std::shared_ptr<const RouteModel> model_;
  SgPlatform* sg_;
  std::vector<double> own_;
  std::vector<double> delta_;
  std::vector<std::vector<int>> routes_of_link_;
};

/** SgPlatform::route_up_at from the links' down windows. */
void set_route_up_at(const std::shared_ptr<const RouteModel>& model, const std::vector<LinkChange>& changes,
                     SgPlatform& sg) {
  auto down = std::make_shared<std::map<int, std::vector<std::pair<double, double>>>>();  // link -> [from, until)
  for (const LinkChange& c : changes) {
    auto& windows = (*down)[c.link];
    if (c.bandwidth_Bps == kDownBandwidthBps) {
      if (windows.empty() || windows.back().second < kInfinity) windows.push_back({c.at_s, kInfinity});
    } else if (!windows.empty() && windows.back().second == kInfinity) {
      windows.back().second = c.at_s;
    }
  }
  for (auto it = down->begin(); it != down->end();) it = it->second.empty() ? down->erase(it) : std::next(it);
  if (down->empty()) return;
  sg.route_up_at = [model, down](int a, int b, double now) {
    const Route& r = model->route(a, b);
    double t = now;
    for (bool moved = true; moved;) {  // until no link of the route is down at t
      moved = false;
      for (int i = 0; i < r.n_path; ++i) {
        const auto w = down->find(r.path[i]);
        if (w == down->end()) continue;
        for (const auto& [from, until] : w->second)
          if (t >= from && t < until) {
            t = until;
            moved = true;
          }
      }
    }
    return t;
  };
}

}  // namespace

std::map<int, LinkProfile> bandwidth_profiles(const Scenario& scenario, double origin_s) {
  std::map<int, LinkProfile> out;
  if (scenario.events.empty() || !scenario.platform.simgrid_xml.empty()) return out;
  const RouteModel model(scenario.platform);
  std::map<int, std::ostringstream> text_of_link;
  std::map<int, double> last_of_link;
  for (const LinkChange& c : link_timeline(model, scenario.events, origin_s)) {
    auto last = last_of_link.find(c.link);
    if (last != last_of_link.end() && last->second == c.bandwidth_Bps) continue;  // a latency change only
    LinkProfile& profile = out[c.link];
    if (last == last_of_link.end()) profile.initial_Bps = model.link(c.link).bandwidth_Bps;
    last_of_link[c.link] = c.bandwidth_Bps;
    // A change at time 0 is the link's bandwidth at creation: SimGrid 3.32 leaves a transfer that starts at 0 at the
    // rate of a profile's time-0 value even after the profile's later changes.
    if (c.at_s == 0) {
      profile.initial_Bps = c.bandwidth_Bps;
      continue;
    }
    std::ostringstream& text = text_of_link[c.link];
    text.precision(17);
    text << c.at_s << " " << c.bandwidth_Bps << "\n";
  }
  for (auto& [id, text] : text_of_link) out[id].text = text.str();
  return out;
}

void start_disturbances(const Scenario& scenario, SgPlatform& sg, double origin_s, double stop_at_s, bool* stopped) {
  if (scenario.events.empty() && !std::isfinite(stop_at_s)) return;
  set_speed_profiles(scenario, sg, origin_s);
  auto model = std::make_shared<RouteModel>(scenario.platform);
  auto changes = std::make_shared<std::vector<LinkChange>>(link_timeline(*model, scenario.events, origin_s));
  set_route_up_at(model, *changes, sg);
  if (changes->empty() && !std::isfinite(stop_at_s)) return;
  dense_route_latencies(sg);  // changed latencies are kept per host pair
  auto latencies = std::make_shared<RouteLatencies>(model, sg, *changes);
  SgPlatform* platform = &sg;
  sg4::ActorPtr actor = sg4::Actor::create("events", sg.hosts.front(), [=]() {
    for (const LinkChange& c : *changes) {
      if (c.at_s >= stop_at_s) break;
      sg4::this_actor::sleep_until(c.at_s);
      sg4::Link* link = platform->model_links[c.link];
      if (platform->latency_at_receiver) latencies->set(c.link, c.latency_s);
      else if (link->get_latency() != c.latency_s) link->set_latency(c.latency_s);
    }
    if (!std::isfinite(stop_at_s)) return;
    sg4::this_actor::sleep_until(stop_at_s);
    if (stopped) *stopped = true;
    sg4::Actor::kill_all();
  });
  // A daemon: the run ends when the ranks are done, whatever changes are still to come.
  actor->daemonize();
}

}  // namespace hulk
