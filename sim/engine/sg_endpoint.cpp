#include "sim/engine/sg_endpoint.hpp"

#include <cmath>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>

#include "sim/engine/courier.hpp"
#include "sim/engine/trace_recorder.hpp"

namespace hulk {

namespace sg4 = simgrid::s4u;

std::string CommTag::id() const {
  std::string out = kind_name();
  switch (kind) {
    case TP:
      out += "/s" + std::to_string(stage) + "d" + std::to_string(dp) + "/mb" + std::to_string(mb) + "/l" +
             std::to_string(layer) + "/" + dir + std::to_string(idx);
      break;
    case DP:
      if (dir == 'n') out += "/d" + std::to_string(this->dp) + "/norm";
      else out += "/s" + std::to_string(stage) + "t" + std::to_string(tp);
      if (dir == 'e') out += "d" + std::to_string(this->dp) + "/emb";
      break;
    case PP:
      out += "/s" + std::to_string(stage) + "d" + std::to_string(dp) + "t" + std::to_string(tp) + "/mb" +
             std::to_string(mb) + "/" + dir;
      if (layer > 0) out += "/c" + std::to_string(layer);  // the model chunk of an interleaved pipeline
      break;
    case OUTER:
      out += "/s" + std::to_string(stage) + "t" + std::to_string(tp) + "k" + std::to_string(dp);
      break;
  }
  return out;
}

MessageFabric::MessageFabric(std::vector<int> host_of_rank, std::vector<int> region_of_host, bool record_events,
                             const SgPlatform& sg, const NetworkSpec& network)
    : host_of_rank_(std::move(host_of_rank)), region_of_host_(std::move(region_of_host)),
      record_events_(record_events), sg_(&sg), tcp_window_bytes_(network.tcp_window_bytes),
      channels_(network.channels_per_peer) {}

MessageFabric::~MessageFabric() = default;

double MessageFabric::receiver_latency_s(int src, int dst) const {
  if (!sg_->latency_at_receiver) return 0.0;
  return sg_->latency_s(host_of_rank_[src], host_of_rank_[dst]);
}

double MessageFabric::flow_rate_cap_Bps(int src, int dst) const {
  if (!sg_->latency_at_receiver || tcp_window_bytes_ <= 0) return 0.0;
  const double rtt_s = 2.0 * sg_->latency_s(host_of_rank_[src], host_of_rank_[dst]);
  return rtt_s > 0 ? tcp_window_bytes_ / rtt_s : 0.0;
}

double MessageFabric::route_up_time(int src, int dst) const {
  const double now = sg4::Engine::get_clock();
  return sg_->route_up_at ? sg_->route_up_at(host_of_rank_[src], host_of_rank_[dst], now) : now;
}

void MessageFabric::wait_until_route_up(int src, int dst) const {
  if (!sg_->route_up_at) return;
  // Until the clock has reached the time the route is up (when the links' bandwidth profiles are back): a sleep can
  // end a rounding error before the time asked, and a transfer started then would keep the down link's rate.
  for (double up = route_up_time(src, dst); up > sg4::Engine::get_clock(); up = route_up_time(src, dst))
    sg4::this_actor::sleep_until(up);
}

sg4::Host* MessageFabric::sg_host_of(int rank) const { return sg_->hosts[host_of_rank_[rank]]; }

bool MessageFabric::has_downs() const { return static_cast<bool>(sg_->route_up_at); }

bool MessageFabric::is_eager(int src, int dst) const {
  return eager_.count((static_cast<std::uint64_t>(src) << 32) | static_cast<std::uint32_t>(dst)) > 0;
}

Courier& MessageFabric::courier(int src, int dst) {
  const std::uint64_t key = (static_cast<std::uint64_t>(src) << 32) | static_cast<std::uint32_t>(dst);
  auto it = couriers_.find(key);
  if (it == couriers_.end())
    it = couriers_
             .emplace(key, std::make_unique<Courier>(sg_->hosts[host_of_rank_[src]], mailbox(src, dst), channels_,
                                                     flow_rate_cap_Bps(src, dst),
                                                     [this, src, dst] { wait_until_route_up(src, dst); }))
             .first;
  return *it->second;
}

sg4::Mailbox* MessageFabric::mailbox(int src, int dst) {
  const std::uint64_t key = (static_cast<std::uint64_t>(src) << 32) | static_cast<std::uint32_t>(dst);
  auto it = boxes_.find(key);
  if (it != boxes_.end()) return it->second;
  sg4::Mailbox* box = sg4::Mailbox::by_name(std::to_string(src) + ">" + std::to_string(dst));
  boxes_.emplace(key, box);
  return box;
}

void MessageFabric::set_permanent_receiver(int src, int dst, sg4::ActorPtr receiver) {
  mailbox(src, dst)->set_receiver(receiver);
  const std::uint64_t key = (static_cast<std::uint64_t>(src) << 32) | static_cast<std::uint32_t>(dst);
  if (receiver) eager_.insert(key);
  else eager_.erase(key);
}

int MessageFabric::link_class(int src, int dst) const {
  const int hs = host_of_rank_[src], hd = host_of_rank_[dst];
  if (hs == hd) return 0;
  return region_of_host_[hs] == region_of_host_[hd] ? 1 : 2;
}

namespace {

/** The payload of one message, stamped with the time it was posted (for the pp/bubble split). */
std::unique_ptr<SgMessage> make_message(int src, double bytes, const CommTag& tag) {
  auto msg = std::make_unique<SgMessage>();
  msg->src = src;
  msg->bytes = bytes;
  msg->post_time_s = sg4::Engine::get_clock();
  msg->tag = tag;
  return msg;
}

}  // namespace

sg4::CommPtr start_put(sg4::Mailbox* box, std::unique_ptr<SgMessage> msg, double rate_cap_Bps) {
  const auto size = static_cast<std::uint64_t>(std::llround(msg->bytes));
  // Ownership passes to the receiver, which wraps the pointer back into a unique_ptr in complete().
  if (rate_cap_Bps <= 0) return box->put_async(msg.release(), size);
  sg4::CommPtr comm = box->put_init(msg.release(), size);
  comm->set_rate(rate_cap_Bps);
  comm->start();
  return comm;
}

Endpoint::Connection& Endpoint::connection(int dst, CommTag::Kind kind) {
  for (Connection& c : connections_)
    if (c.dst == dst && c.kind == kind) return c;
  connections_.push_back(Connection{dst, kind, {}});
  return connections_.back();
}

void Endpoint::send(int dst, double bytes, const CommTag& tag) {
  Connection& c = connection(dst, tag.kind);
  // In order: wait until a channel is free (the oldest message still leaving has left). Every transfer is waited
  // for, even one whose receiver already has it: SimGrid 3.32 keeps transfers nobody waited for in a list that its
  // comm code scans linearly, so dropping the handle instead makes every later message slower (docs/performance.md).
  while (static_cast<int>(c.leaving.size()) >= fabric_.channels()) {
    c.leaving.front()->wait();
    c.leaving.erase(c.leaving.begin());  // a handful of entries at most: cheaper than a deque's block churn
  }
  std::unique_ptr<SgMessage> msg = make_message(rank_, bytes, tag);  // posted now, even if its route is down
  fabric_.wait_until_route_up(rank_, dst);
  c.leaving.push_back(start_put(out_box(dst), std::move(msg), fabric_.flow_rate_cap_Bps(rank_, dst)));
}

void Endpoint::send_eager(int dst, double bytes, const CommTag& tag) {
  fabric_.courier(rank_, dst).push(make_message(rank_, bytes, tag));
}

void Endpoint::wait_sends() {
  for (Connection& c : connections_) {
    for (auto& comm : c.leaving) comm->wait();
    c.leaving.clear();
  }
}

sg4::Mailbox* Endpoint::out_box(int dst) {
  for (const auto& e : out_cache_)
    if (e.first == dst) return e.second;
  out_cache_.emplace_back(dst, fabric_.mailbox(rank_, dst));
  return out_cache_.back().second;
}

sg4::Mailbox* Endpoint::in_box(int src) {
  for (const auto& e : in_cache_)
    if (e.first == src) return e.second;
  in_cache_.emplace_back(src, fabric_.mailbox(src, rank_));
  return in_cache_.back().second;
}

Endpoint::WaitingRecvs& Endpoint::waiting_from(int src) {
  for (auto& w : waiting_)
    if (w->src == src) return *w;
  waiting_.push_back(std::make_unique<WaitingRecvs>());
  waiting_.back()->src = src;
  return *waiting_.back();
}

void Endpoint::post_when_route_up(PendingRecv& into) {
  into.posted = sg4::Semaphore::create(0);
  into.consumed = sg4::Semaphore::create(0);
  WaitingRecvs& w = waiting_from(into.src);
  w.queue.push_back(&into);
  if (w.poster_running) return;
  w.poster_running = true;
  sg4::Actor::create("recv-poster", fabric_.sg_host_of(rank_), [this, &w]() {
    fabric_.wait_until_route_up(w.src, rank_);
    // Actors run one at a time between simulation steps: the queue is drained, and the poster marked done, in one
    // step, so a receive posted after that finds the route up (or starts a poster of its own).
    std::vector<sg4::SemaphorePtr> consumed;
    for (PendingRecv* r : w.queue) {
      r->comm = in_box(w.src)->get_async<SgMessage>(&r->data);
      consumed.push_back(r->consumed);
      r->posted->release();
    }
    w.queue.clear();
    w.poster_running = false;
    for (const sg4::SemaphorePtr& done : consumed) done->acquire();  // its receives must not outlive it
  });
}

void Endpoint::post_recv(int src, PendingRecv& into) {
  into.src = src;
  into.data = nullptr;
  into.comm = nullptr;
  into.posted = into.consumed = nullptr;
  // A rendezvous transfer starts when both sides have posted: posted on a down route, a sender already waiting would
  // start it on the down link, at that link's rate for good (SimGrid 3.32's CM02 bounds a transfer by its route's
  // bandwidth when it starts). Such a receive is posted when the route is up again, as the rank would have it.
  // Every receive of every run passes here: without downs (nearly every run) nothing else is looked up.
  if (fabric_.has_downs()) {
    const bool behind_waiting = !waiting_.empty() && !waiting_from(src).queue.empty();
    if (behind_waiting ||
        (!fabric_.is_eager(src, rank_) && fabric_.route_up_time(src, rank_) > sg4::Engine::get_clock())) {
      post_when_route_up(into);
      return;
    }
  }
  into.comm = in_box(src)->get_async<SgMessage>(&into.data);
}

std::unique_ptr<SgMessage> Endpoint::complete(PendingRecv& pending) {
  if (pending.posted) {
    pending.posted->acquire();
    pending.posted = nullptr;
  }
  pending.comm->wait();
  if (pending.consumed) {
    pending.consumed->release();
    pending.consumed = nullptr;
  }
  std::unique_ptr<SgMessage> msg(pending.data);
  pending.data = nullptr;
  // The transfer has ended when its last byte left the sender; it arrives one route latency later.
  // (Intra-host messages have no receiver-side latency: most messages skip the clock check.)
  const double latency_s = fabric_.receiver_latency_s(msg->src, rank_);
  const double arrival_s =
      latency_s > 0 || fabric_.record_events() ? pending.comm->get_finish_time() + latency_s : 0.0;
  if (latency_s > 0 && arrival_s > sg4::Engine::get_clock()) sg4::this_actor::sleep_until(arrival_s);
  ++ledger_.messages;
  switch (fabric_.link_class(msg->src, rank_)) {
    case 0: ledger_.bytes.intra_host += msg->bytes; break;
    case 1: ledger_.bytes.intra_region += msg->bytes; break;
    default: ledger_.bytes.inter_region += msg->bytes; break;
  }
  if (fabric_.record_events()) {
    RawEvent e;
    e.iteration = ledger_.iteration;
    e.tag = msg->tag;
    e.src = msg->src;
    e.dst = rank_;
    e.bytes = msg->bytes;
    e.start_s = msg->post_time_s;
    e.end_s = arrival_s;
    ledger_.trace->message(e);
  }
  pending.comm = nullptr;
  return msg;
}

}  // namespace hulk
