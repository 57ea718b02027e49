#include "sim/core/subprocess.hpp"

#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <csignal>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "sim/core/errors.hpp"

namespace hulk {
namespace {

volatile std::sig_atomic_t g_interrupted = 0;
std::vector<int> g_killed;
std::mutex g_killed_mutex;  // children run side by side from several threads (the search's SimGrid checks)

void on_interrupt(int) { g_interrupted = 1; }

void write_all(int fd, const std::string& data) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

/** Reads until EOF; returns false (without waiting for the child) as soon as the parent is interrupted. Polls with a
 *  short timeout rather than trusting EINTR alone: a signal arriving between the flag check and the read would
 *  otherwise be missed until the child finished. */
bool read_all(int fd, std::string& out) {
  char buf[65536];
  for (;;) {
    if (g_interrupted) return false;
    pollfd p{fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, 100);
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) continue;
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return true;
    out.append(buf, static_cast<size_t>(n));
  }
}

void reap(pid_t pid, int& status) {
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
}

}  // namespace

void install_interrupt_handlers() {
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a blocking call returns EINTR and the code checks the flag
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
}

bool interrupt_requested() { return g_interrupted != 0; }

std::vector<int> killed_children() {
  const std::lock_guard<std::mutex> lock(g_killed_mutex);
  return g_killed;
}

nlohmann::json run_in_child(const std::function<nlohmann::json()>& fn) {
  if (g_interrupted) throw Interrupted();
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(std::string("pipe failed: ") + std::strerror(errno));
  // Unflushed stdio buffers would be inherited by the child and could be written twice.
  std::fflush(nullptr);
  const pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
  if (pid == 0) {
    ::close(fds[0]);
    // Always blocked, whatever the parent does: the parent decides (it kills this child when interrupted). Blocked,
    // not just ignored: SimGrid's engine installs its own SIGINT handler (status dump, then exit(1), once seen
    // deadlocking in malloc), which would replace SIG_IGN; a blocked signal stays pending whatever handler is
    // installed, and the child leaves with _exit before it could be delivered.
    ::signal(SIGINT, SIG_IGN);
    ::signal(SIGTERM, SIG_IGN);
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    ::sigprocmask(SIG_BLOCK, &block, nullptr);
    // Dies with its parent, however the parent ends (even SIGKILL): a grandchild of a killed child must not live on
    // as an orphan holding the program's stdout (`| tee`) open. Checked after the call, as the parent may be gone.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(1);
    // A crash here (SimGrid on a malformed platform) is reported by the parent as one line: no core file is left in
    // the user's folder.
    const rlimit no_core{0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);
    // The envelope says whether the child succeeded, so the parent can re-throw the right exception type.
    nlohmann::json envelope;
    try {
      envelope = {{"ok", true}, {"value", fn()}};
    } catch (const InputError& e) {
      envelope = {{"ok", false}, {"input_error", true}, {"message", e.what()},
                  {"file", e.file()}, {"line", e.line()}, {"key", e.key()}};
    } catch (const std::exception& e) {
      envelope = {{"ok", false}, {"input_error", false}, {"message", e.what()}};
    } catch (...) {
      envelope = {{"ok", false}, {"input_error", false}, {"message", "unknown exception"}};
    }
    // A message may quote bytes of a corrupt input file that are not UTF-8: replaced (U+FFFD), not an exception
    // that would leave the parent without an answer.
    write_all(fds[1], envelope.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    ::close(fds[1]);
    ::_exit(0);  // skip atexit handlers and static destructors (SimGrid's engine)
  }
  ::close(fds[1]);
  std::string text;
  const bool complete = read_all(fds[0], text);
  int status = 0;
  if (!complete) {
    // Killed before the pipe is closed, so the child can never block on a full pipe; reaped so no orphan keeps
    // running (or keeps a `| tee` pipe open) after the program has exited.
    ::kill(pid, SIGKILL);
    ::close(fds[0]);
    reap(pid, status);
    {
      const std::lock_guard<std::mutex> lock(g_killed_mutex);
      g_killed.push_back(static_cast<int>(pid));
    }
    throw Interrupted();
  }
  ::close(fds[0]);
  reap(pid, status);
  if (WIFSIGNALED(status))
    throw std::runtime_error("child process killed by signal " + std::to_string(WTERMSIG(status)));
  nlohmann::json envelope = nlohmann::json::parse(text, nullptr, false);
  if (envelope.is_discarded() || !envelope.is_object())
    throw std::runtime_error("child process died without an answer (exit status " +
                             std::to_string(WEXITSTATUS(status)) + ")");
  if (envelope.value("ok", false)) return envelope["value"];
  std::string message = envelope.value("message", "unknown error");
  if (envelope.value("input_error", false))
    throw InputError(InputError::Preformatted{}, envelope.value("file", ""), envelope.value("line", 0),
                     envelope.value("key", ""), message);
  throw std::runtime_error(message);
}

}  // namespace hulk
