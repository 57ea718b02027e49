// run_in_child's interrupt contract (sim/core/subprocess.hpp): a child blocks SIGINT and SIGTERM whatever the parent
// does, and a parent interrupted while a child works kills and reaps it and throws Interrupted.
#include "sim/core/subprocess.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <thread>

namespace hulk {
namespace {

TEST(Subprocess, ChildSurvivesSigintAndSigtermWithADefaultHandlerParent) {
  // This process keeps the default handlers (it never installs any): the child must still not die of the signals
  // (a Ctrl-C reaches the whole process group; the parent decides).
  const nlohmann::json answer = run_in_child([] {
    ::kill(::getpid(), SIGINT);
    ::kill(::getpid(), SIGTERM);
    return nlohmann::json(42);
  });
  EXPECT_EQ(answer, 42);
}

TEST(Subprocess, InterruptedParentKillsAndReapsItsChild) {
  // In a forked tester, so that the interrupt flag it sets does not reach the other tests of this process.
  const pid_t tester = ::fork();
  ASSERT_GE(tester, 0);
  if (tester == 0) {
    install_interrupt_handlers();
    std::thread signaller([] {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));  // let the child start; no duration is asserted
      ::kill(::getpid(), SIGINT);
    });
    int code = 1;
    try {
      run_in_child([]() -> nlohmann::json {
        for (;;) ::pause();  // a child that would never answer: only the parent's kill ends it
      });
      code = 2;
    } catch (const Interrupted&) {
      const auto killed = killed_children();
      // Reaped: no process with that id is left (not even a zombie, which kill(pid, 0) would still find).
      code = (killed.size() == 1 && ::kill(killed[0], 0) != 0 && errno == ESRCH) ? 0 : 3;
    } catch (...) {
      code = 4;
    }
    signaller.join();
    ::_exit(code);
  }
  int status = 0;
  while (::waitpid(tester, &status, 0) < 0 && errno == EINTR) {
  }
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: no answer, 2: returned, 3: child not killed and reaped, 4: other error";
}

TEST(Subprocess, NoChildIsStartedOnceInterrupted) {
  const pid_t tester = ::fork();
  ASSERT_GE(tester, 0);
  if (tester == 0) {
    install_interrupt_handlers();
    ::kill(::getpid(), SIGTERM);
    int code = 1;
    try {
      run_in_child([] { return nlohmann::json(1); });
    } catch (const Interrupted& e) {
      code = std::string(e.what()) == "interrupted" ? 0 : 2;
    }
    ::_exit(code);
  }
  int status = 0;
  while (::waitpid(tester, &status, 0) < 0 && errno == EINTR) {
  }
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace hulk
