#pragma once
/** @file transfer_fluid.hpp
 *  @brief A small fluid simulation of point-to-point transfers with start dependencies (a DAG): a transfer starts
 *  when its earliest start time has come and every transfer it depends on has arrived; transfers in flight share
 *  links (each progresses at the share of its busiest link, capacity / flows on it, capped per flow); a transfer
 *  arrives one route latency after its last byte left (latency at the receiver, CM02 in the engine) or, when the
 *  links carry the latency, uses bandwidth only after it. Pure code, used for collectives whose flows start at
 *  staggered times (tree all-reduces of all stages at once). */
#include <vector>

#include "sim/topology/route_model.hpp"

namespace hulk {

/** @brief Transfers, their dependencies and the run; reusable (clear() keeps the buffers). */
class TransferFluid {
 public:
  /** @brief Forgets every transfer (buffers are kept). */
  void clear();
  /** @brief Adds a transfer of `bytes` from host src to host dst that may not start before ready_s (seconds).
   *  @return its index. */
  int add(int src_host, int dst_host, double bytes, double ready_s);
  /** @brief Transfer `later` starts only once transfer `first` has arrived (or, with on_left, once its last byte
   *  has left the sender: the in-order connection is free again). */
  void after(int later, int first, bool on_left = false);
  /** @brief Number of transfers added. */
  int size() const { return static_cast<int>(t_.size()); }
  /** @brief Runs every transfer. @param net routes and capacities, @param tcp_window_bytes per-flow window (0 =
   *  none: the cap is then window / round trip), @param latency_at_receiver see the file comment,
   *  @param link_divisors if given, link l's capacity is net.link_bandwidth_Bps(l) / (*link_divisors)[l] (other
   *  jobs' share, Evaluator::share_links). */
  void run(const RouteModel& net, double tcp_window_bytes, bool latency_at_receiver,
           const std::vector<double>* link_divisors = nullptr);
  /** @brief Arrival time of transfer i (seconds), after run(). */
  double arrival_s(int i) const { return arrive_[i]; }

  /** @brief A transfer in the ready set: its start time, the order it became ready in, its index. */
  struct Pending {
    double start_at;
    int seq, i;
  };

 private:
  struct T {
    int src, dst;
    double bytes, ready_s;
  };
  std::vector<T> t_;
  struct Edge {
    int first, later;
    bool on_left;
  };
  std::vector<Edge> edges_;
  // Run state.
  std::vector<int> succ_begin_, succ_, preds_left_, active_, link_count_;
  std::vector<char> succ_on_left_;
  std::vector<double> arrive_, remaining_, rate_, start_at_;
  std::vector<char> state_;  ///< 0 waiting, 1 latency first, 2 transferring, 3 done
  std::vector<Route> route_;        ///< per transfer: its route
  std::vector<double> cap_;          ///< per transfer: its per-flow rate cap (bytes/s)
  std::vector<std::vector<int>> on_link_;  ///< per link: transfers on it (empty between runs)
  std::vector<Pending> waiting_;     ///< ready, start time not come: heap by (start time, seq)
  std::vector<Pending> due_;         ///< ready, start time come: heap by seq
  const RouteModel* net_ = nullptr;  ///< during run()
  const std::vector<double>* divisors_ = nullptr;  ///< during run(): per-link capacity divisors, or none
  int next_seq_ = 0;                  ///< order of the next transfer to become ready
  /** @brief Successor lists (CSR) and predecessor counts from the edges. */
  void build_successors();
  /** @brief Run state of every transfer; routes, caps; the initially ready transfers. */
  void prepare(const RouteModel& net, double tcp_window_bytes);
  /** @brief Transfer i's predecessors all arrived: it joins the ready set. */
  void make_ready(int i);
  /** @brief Rate of transfer i (bytes/s): its cap, or its share of its busiest link. */
  double rate_of(int i) const;
  /** @brief New rates for the flows on the links of transfer `changed` (their counts changed). */
  void refresh(int changed);
  /** @brief Transfer i enters (+1) or leaves (-1) its links. */
  void count(int i, int delta);
  /** @brief The ready transfer to start next (-1 = none) and when (t); from_due: its start time has come. */
  int next_ready(double now, double& t, bool& from_due);
  /** @brief Removes next_ready's transfer from the ready set. */
  Pending take_ready(bool from_due);
};

}  // namespace hulk
