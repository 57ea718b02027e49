// Independent tasks on the machine's cores (sim/core/parallel_tasks.hpp): every task runs once, errors come back in
// task order, HULK_THREADS is checked, and the methods that use it (the gnn method's two annealing branches) give
// the same answers on one thread and on several.
#include <gtest/gtest.h>

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "placement_test_platforms.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/parallel_tasks.hpp"
#include "sim/evaluate/jobs_evaluator.hpp"
#include "sim/features/scenario_sampler.hpp"
#include "sim/methods/gnn_method.hpp"
#include "sim/place/jobs_search.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/random_placer.hpp"

namespace hulk {
namespace {

/** Sets HULK_THREADS for the scope of the object, restoring the previous value (or its absence) after. */
class ThreadsEnv {
 public:
  explicit ThreadsEnv(const char* value) {
    if (const char* old = std::getenv("HULK_THREADS")) had_ = true, old_ = old;
    if (value) {
      setenv("HULK_THREADS", value, 1);
    } else {
      unsetenv("HULK_THREADS");
    }
  }
  ~ThreadsEnv() {
    if (had_) {
      setenv("HULK_THREADS", old_.c_str(), 1);
    } else {
      unsetenv("HULK_THREADS");
    }
  }

 private:
  bool had_ = false;
  std::string old_;
};

TEST(ParallelTasks, EveryTaskRunsOnceOnAnyNumberOfThreads) {
  for (const char* threads : {"1", "2", "7"}) {
    const ThreadsEnv env(threads);
    std::vector<int> runs(50, 0);
    std::vector<std::function<void()>> tasks;
    for (size_t i = 0; i < runs.size(); ++i) tasks.push_back([&runs, i]() { ++runs[i]; });
    run_tasks(tasks);
    EXPECT_EQ(runs, std::vector<int>(50, 1)) << threads << " threads";
  }
}

TEST(ParallelTasks, TasksStartedInsideATaskRunOnItsThread) {
  const ThreadsEnv env("4");
  EXPECT_FALSE(inside_task());
  std::vector<std::thread::id> outer(2), inner(6);
  std::vector<int> inside(2, 0);
  std::vector<std::function<void()>> tasks;
  for (int i = 0; i < 2; ++i)
    tasks.push_back([&, i]() {
      outer[i] = std::this_thread::get_id();
      inside[i] = inside_task() ? 1 : 0;
      std::vector<std::function<void()>> nested;
      for (int j = 0; j < 3; ++j) nested.push_back([&, i, j]() { inner[3 * i + j] = std::this_thread::get_id(); });
      run_tasks(nested);
    });
  run_tasks(tasks);
  EXPECT_EQ(inside, std::vector<int>(2, 1));
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(inner[3 * i + j], outer[i]) << "task " << i << ", nested " << j;
  EXPECT_FALSE(inside_task());  // the calling thread's state restored after its tasks
}

TEST(ParallelTasks, TheFirstFailingTaskInOrderIsRethrownAfterAllRan) {
  const ThreadsEnv env("2");
  std::vector<int> ran(6, 0);
  std::vector<std::function<void()>> tasks;
  for (int i = 0; i < 6; ++i)
    tasks.push_back([&ran, i]() {
      ran[i] = 1;
      if (i == 2 || i == 4) throw std::runtime_error("task " + std::to_string(i));
    });
  try {
    run_tasks(tasks);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "task 2");
  }
  EXPECT_EQ(ran, std::vector<int>(6, 1));
}

TEST(ParallelTasks, HulkThreadsMustBeAPositiveWholeNumber) {
  for (const char* bad : {"", "0", "-3", "2x", "two", "100000"}) {
    const ThreadsEnv env(bad);
    EXPECT_THROW(task_threads(), InputError) << "'" << bad << "'";
  }
  const ThreadsEnv env("3");
  EXPECT_EQ(task_threads(), 3);
}

TEST(ParallelTasks, TheGnnAnnealingBranchesGiveTheSameAnswerOnOneThreadOrTwo) {
  // From greedy's placement and from a random one (whose alternative start is faster, so both branches run).
  int compared = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const Scenario s = testing::small_sampled_cluster(seed);
    for (const Placement& start : {GreedyPlacer().place(s), RandomPlacer(seed).place(s)}) {
      Placement one, two;
      {
        const ThreadsEnv env("1");
        one = anneal_learned_placement(s, start, LearnedAnnealOptions{});
      }
      {
        const ThreadsEnv env("2");
        two = anneal_learned_placement(s, start, LearnedAnnealOptions{});
      }
      EXPECT_EQ(one.gpu_of_rank, two.gpu_of_rank) << s.name;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 12);
}

TEST(ParallelTasks, GreedyOverEveryJobOrderGivesTheSameAnswerOnOneThreadOrTwo) {
  // The (reserve, order) greedy runs share one cache of one-job placements across threads; the answer and the
  // order it came from must not depend on the threads.
  SamplerOptions o;
  o.max_total_gpus = 64;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const Scenario s = sample_jobs_scenario(seed, 2 + static_cast<int>(seed % 3), o);
    const JobsEvaluator ev(s);
    std::vector<int> order_one, order_two;
    Placement one, two;
    {
      const ThreadsEnv env("1");
      one = best_greedy_jobs_placement(s, ev, &order_one);
    }
    {
      const ThreadsEnv env("2");
      two = best_greedy_jobs_placement(s, ev, &order_two);
    }
    EXPECT_EQ(one.gpu_of_rank, two.gpu_of_rank) << s.name;
    EXPECT_EQ(order_one, order_two) << s.name;
  }
}

}  // namespace
}  // namespace hulk
