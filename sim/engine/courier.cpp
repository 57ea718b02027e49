#include "sim/engine/courier.hpp"

#include <string>

#include <simgrid/s4u/Actor.hpp>

#include "sim/engine/sg_endpoint.hpp"

namespace hulk {

namespace sg4 = simgrid::s4u;

Courier::Courier(sg4::Host* host, sg4::Mailbox* box, int channels, double rate_cap_Bps,
                 std::function<void()> before_send)
    : box_(box), rate_cap_Bps_(rate_cap_Bps), before_send_(std::move(before_send)) {
  for (int c = 0; c < channels; ++c)
    sg4::Actor::create("courier " + box->get_name() + " #" + std::to_string(c), host, [this] {
      // A daemon: when every rank actor has finished, SimGrid ends the simulation and kills it where it waits.
      sg4::Actor::self()->daemonize();
      channel_loop();
    });
}

// Messages still queued when the simulation ends (none in a finished run: the barrier waits for every receive).
Courier::~Courier() = default;

void Courier::push(std::unique_ptr<SgMessage> msg) {
  queue_.push_back(std::move(msg));
  if (idle_.empty()) return;  // every channel is sending; the first to finish takes this message
  sg4::ActorPtr channel = idle_.back();
  idle_.pop_back();
  channel->resume();
}

void Courier::channel_loop() {
  for (;;) {
    while (queue_.empty()) {
      idle_.push_back(sg4::Actor::self());
      sg4::this_actor::suspend();
    }
    std::unique_ptr<SgMessage> msg = std::move(queue_.front());
    queue_.pop_front();
    if (before_send_) before_send_();
    // The channel is busy until the message has left (under CM02 the comm ends then; see sg_build_platform).
    start_put(box_, std::move(msg), rate_cap_Bps_)->wait();
  }
}

}  // namespace hulk
