#include "sim/core/parallel_tasks.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <string>
#include <thread>

#include "sim/core/errors.hpp"

namespace hulk {

int task_threads() {
  if (const char* env = std::getenv("HULK_THREADS")) {
    const std::string text = env;
    char* end = nullptr;
    const long n = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || n < 1 || n > 1024)
      throw InputError("<environment>", 0, "HULK_THREADS", "expected a whole number of threads from 1 to 1024, got '" + text + "'");
    return static_cast<int>(n);
  }
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

namespace {
thread_local bool t_inside_task = false;
}  // namespace

bool inside_task() { return t_inside_task; }

void run_tasks(const std::vector<std::function<void()>>& tasks) {
  const int n = static_cast<int>(tasks.size());
  const int threads = t_inside_task ? 1 : std::min(n, task_threads());
  std::vector<std::exception_ptr> errors(n);
  std::atomic<int> next{0};
  const auto work = [&]() {
    const bool outer = t_inside_task;  // the calling thread may be inside a task already
    t_inside_task = true;
    for (int i = next++; i < n; i = next++) {
      try {
        tasks[i]();
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
    t_inside_task = outer;
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();  // the calling thread takes tasks too
  for (std::thread& t : pool) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace hulk
