#include "sim/engine/sg_endpoint.hpp"

#include <cmath>

#include <simgrid/s4u/Engine.hpp>

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
      out += "/s" + std::to_string(stage) + "t" + std::to_string(tp);
      break;
    case PP:
      out += "/s" + std::to_string(stage) + "d" + std::to_string(dp) + "t" + std::to_string(tp) + "/mb" +
             std::to_string(mb) + "/" + dir;
      break;
  }
  return out;
}

MessageFabric::MessageFabric(std::vector<int> host_of_rank, std::vector<int> region_of_host, bool record_events)
    : host_of_rank_(std::move(host_of_rank)), region_of_host_(std::move(region_of_host)),
      record_events_(record_events) {}

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

sg4::CommPtr Endpoint::send(int dst, double bytes, const CommTag& tag) {
  auto msg = make_message(rank_, bytes, tag);
  const auto size = static_cast<std::uint64_t>(std::llround(bytes));
  // Ownership passes to the receiver, which wraps the pointer back into a unique_ptr in complete().
  return out_box(dst)->put_async(msg.release(), size);
}

void Endpoint::send_detached(int dst, double bytes, const CommTag& tag) {
  auto msg = make_message(rank_, bytes, tag);
  const auto size = static_cast<std::uint64_t>(std::llround(bytes));
  // A detached comm is not kept in the sender's activity list; the receiver owns the payload once it has it.
  out_box(dst)->put_init(msg.release(), size)->detach([](void* p) { delete static_cast<SgMessage*>(p); });
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

void Endpoint::post_recv(int src, PendingRecv& into) {
  into.src = src;
  into.data = nullptr;
  into.comm = in_box(src)->get_async<SgMessage>(&into.data);
}

std::unique_ptr<SgMessage> Endpoint::complete(PendingRecv& pending) {
  pending.comm->wait();
  std::unique_ptr<SgMessage> msg(pending.data);
  pending.data = nullptr;
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
    e.end_s = pending.comm->get_finish_time();
    ledger_.events.push_back(e);
  }
  pending.comm = nullptr;
  return msg;
}

void Endpoint::wait_all(std::vector<sg4::CommPtr>& comms) {
  for (auto& c : comms) c->wait();
  comms.clear();
}

}  // namespace hulk
