#include "sim/place/fastest_candidate.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <mutex>
#include <numeric>
#include <optional>

#include "sim/core/parallel_tasks.hpp"
#include "sim/evaluate/evaluation_count.hpp"
#include "sim/evaluate/evaluator.hpp"

namespace hulk {
namespace {

/** The candidates after the first (evaluated already, its time given) in order of their bound, taken one at a time
 *  by one or more workers, and the best so far. Which worker evaluates which candidate, and which are skipped,
 *  may depend on timing; the answer does not: a candidate is skipped only when its bound shows it slower than a
 *  time some candidate has, so every candidate of the least time is evaluated, and the least (time, index) wins,
 *  as in a loop over the list in order that keeps strictly faster ones. */
class CandidateQueue {
 public:
  CandidateQueue(const std::vector<std::vector<int>>& candidates, std::vector<double> bound, double first_s)
      : candidates_(candidates),
        bound_(std::move(bound)),
        order_(candidates.size() - 1),
        time_(candidates.size(), std::numeric_limits<double>::quiet_NaN()) {
    std::iota(order_.begin(), order_.end(), 1);
    std::stable_sort(order_.begin(), order_.end(), [&](int a, int b) { return bound_[a] < bound_[b]; });
    best_.time_s = std::numeric_limits<double>::infinity();
    record(0, first_s);
  }

  /** Evaluates candidates with `ev` until none is left that can still win. */
  void work(const Evaluator& ev) {
    for (std::optional<int> i = take(); i; i = take()) record(*i, ev.time_of_hosts(candidates_[*i]));
  }

  FastestCandidate result() const {
    FastestCandidate out = best_;
    if (out.index < 0) out.time_s = std::numeric_limits<double>::infinity();
    out.evaluated = in_order_count();
    return out;
  }

  /** Evaluations made beyond those of one worker taking the candidates in order (the second worker's speculative
   *  ones, which depend on timing). */
  int speculative() const { return best_.evaluated - in_order_count(); }

 private:
  /** How many candidates one worker would evaluate, replayed from the recorded times: it takes the candidates in
   *  bound order and stops where take() would. Workers stop no earlier (their best is never below the replay's at
   *  the same position), so every candidate the replay takes has been evaluated. Deterministic, so what the
   *  process counts as estimates does not depend on timing. */
  int in_order_count() const {
    FastestCandidate replay;
    replay.time_s = std::numeric_limits<double>::infinity();
    keep_if_fastest(replay, 0, time_[0]);
    for (const int i : order_) {
      if (!may_win(replay, i)) break;
      keep_if_fastest(replay, i, time_[i]);
    }
    return replay.evaluated;
  }

  /** Whether candidate i is still worth evaluating against the best so far (take()'s rule). */
  bool may_win(const FastestCandidate& best, int i) const {
    if (!(bound_[i] < std::numeric_limits<double>::infinity())) return false;  // infeasible, as every later
    return best.index < 0 || bound_[i] <= best.time_s * (1.0 + kBoundRoundingSlack);
  }

  /** Counts candidate i's evaluation in `best` and keeps it if its (time, index) is the least so far. */
  static void keep_if_fastest(FastestCandidate& best, int i, double t) {
    ++best.evaluated;
    if (t < best.time_s || (t == best.time_s && best.index >= 0 && i < best.index)) {
      best.index = i;
      best.time_s = t;
    }
  }

  /** The next candidate in bound order that can still win, if any. */
  std::optional<int> take() {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (next_ >= order_.size() || !may_win(best_, order_[next_])) return std::nullopt;
    return order_[next_++];
  }

  /** Records candidate i's time and keeps it if its (time, index) is the least so far. */
  void record(int i, double t) {
    const std::lock_guard<std::mutex> lock(mutex_);
    time_[i] = t;
    keep_if_fastest(best_, i, t);
  }

  const std::vector<std::vector<int>>& candidates_;
  const std::vector<double> bound_;
  std::vector<int> order_;
  std::vector<double> time_;  ///< per candidate, its evaluated time (NaN if not evaluated)
  size_t next_ = 0;
  FastestCandidate best_;
  std::mutex mutex_;
};

}  // namespace

FastestCandidate fastest_candidate(const Evaluator& ev, const std::vector<std::vector<int>>& candidates,
                                   double parallel_from_s) {
  const int n = static_cast<int>(candidates.size());
  if (n == 0) return FastestCandidate{-1, std::numeric_limits<double>::infinity(), 0};
  // The first candidate is evaluated before any bound: its time is a best to skip others by from the start, and
  // with its cost it says how long the candidates its time does not rule out may take.
  const auto t0 = std::chrono::steady_clock::now();
  const double first_s = ev.time_of_hosts(candidates[0]);
  const double took_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::vector<double> bound(n);
  int may_win = 0;
  for (int i = 1; i < n; ++i) {
    bound[i] = ev.time_lower_bound_of_hosts(candidates[i]);
    may_win += bound[i] <= first_s * (1.0 + kBoundRoundingSlack) ? 1 : 0;
  }
  CandidateQueue queue(candidates, std::move(bound), first_s);
  if (took_s * may_win < parallel_from_s || task_threads() < 2 || inside_task()) {
    queue.work(ev);
  } else {  // a second worker on the same evaluator (each thread estimates in its own scratch)
    run_tasks({[&]() { queue.work(ev); }, [&]() { queue.work(ev); }});
    uncount_evaluator_calls(queue.speculative());
  }
  return queue.result();
}

}  // namespace hulk
