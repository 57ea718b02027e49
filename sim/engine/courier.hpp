#pragma once
/** @file courier.hpp
 *  @brief The sending side of one eager connection (pipeline activations or gradients from one rank to its
 *  neighbour stage). The rank hands messages over without waiting (its compute goes on, as with sends on their own
 *  CUDA stream); `channels` daemon actors on the sender's host take them in order and put each into the
 *  connection's mailbox, one message per channel at a time. A message therefore starts transmitting when an
 *  earlier one has left the sender, and queued micro-batches arrive one after another instead of all together. */
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Mailbox.hpp>

namespace simgrid {
namespace s4u {
class Host;
}
}  // namespace simgrid

namespace hulk {

struct SgMessage;

/** @brief One eager connection's queue and its channel actors. */
class Courier {
 public:
  /** @brief Starts `channels` daemon actors on `host` (named "courier <name> #i") that send into `box`, each flow
   *  capped at rate_cap_Bps if > 0. Daemons end with the simulation's last rank actor. */
  /** @param before_send called by a channel before each message starts (may block it: a route that is down). */
  Courier(simgrid::s4u::Host* host, simgrid::s4u::Mailbox* box, int channels, double rate_cap_Bps,
          std::function<void()> before_send = {});
  Courier(const Courier&) = delete;
  Courier& operator=(const Courier&) = delete;
  ~Courier();
  /** @brief Queues a message (never blocks the caller); the first free channel sends it. */
  void push(std::unique_ptr<SgMessage> msg);

 private:
  void channel_loop();

  simgrid::s4u::Mailbox* box_;
  double rate_cap_Bps_;
  std::function<void()> before_send_;
  std::deque<std::unique_ptr<SgMessage>> queue_;
  // Channel actors waiting for work (suspended). Actors run one at a time and switch only inside SimGrid calls,
  // so the queue needs no lock; suspend/resume rather than a condition variable, because a daemon killed at the
  // end of the simulation must not hold a lock.
  std::vector<simgrid::s4u::ActorPtr> idle_;
};

}  // namespace hulk
