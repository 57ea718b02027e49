#include "sim/core/subprocess.hpp"

#include <sys/wait.h>
#include <csignal>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "sim/core/errors.hpp"

namespace hulk {
namespace {

void write_all(int fd, const std::string& data) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

std::string read_all(int fd) {
  std::string out;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  return out;
}

}  // namespace

nlohmann::json run_in_child(const std::function<nlohmann::json()>& fn) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(std::string("pipe failed: ") + std::strerror(errno));
  // Unflushed stdio buffers would be inherited by the child and could be written twice.
  std::fflush(nullptr);
  // A parent that handles SIGINT/SIGTERM itself stops gracefully after the current item (sweep, gen-data): its
  // children, in the same process group, must then finish that item instead of dying of the same Ctrl-C.
  struct sigaction int_action {}, term_action {};
  ::sigaction(SIGINT, nullptr, &int_action);
  ::sigaction(SIGTERM, nullptr, &term_action);
  const bool graceful_parent = int_action.sa_handler != SIG_DFL && int_action.sa_handler != SIG_IGN;
  pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
  if (pid == 0) {
    ::close(fds[0]);
    if (graceful_parent) {
      // Blocked, not just ignored: SimGrid's engine installs its own SIGINT handler (status dump, then exit(1)),
      // which would replace SIG_IGN; a blocked signal stays pending whatever handler is installed, and the child
      // leaves with _exit before it could be delivered.
      ::signal(SIGINT, SIG_IGN);
      ::signal(SIGTERM, SIG_IGN);
      sigset_t block;
      sigemptyset(&block);
      sigaddset(&block, SIGINT);
      sigaddset(&block, SIGTERM);
      ::sigprocmask(SIG_BLOCK, &block, nullptr);
    }
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
    write_all(fds[1], envelope.dump());
    ::close(fds[1]);
    ::_exit(0);  // skip atexit handlers and static destructors (SimGrid's engine)
  }
  ::close(fds[1]);
  std::string text = read_all(fds[0]);
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
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
