#pragma once
/** @file subprocess.hpp
 *  @brief Runs a function in a forked child process and returns its JSON answer. SimGrid's engine cannot be
 *  reset and torch's thread pool must not be forked, so every simulation (and every torch inference in the
 *  orchestrating commands) runs in its own child; the parent never starts either.
 *
 *  Interrupts: the parent owns SIGINT/SIGTERM (install_interrupt_handlers); every child blocks both, so a Ctrl-C
 *  sent to the whole process group never reaches SimGrid's own handler (which may deadlock in malloc). When the
 *  parent is interrupted while a child works, it kills and reaps that child and throws Interrupted. */
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/errors.hpp"

namespace hulk {

/** @brief The user interrupted the program (SIGINT/SIGTERM). An InputError, so that code that records a failed
 *  method and goes on (compare) keeps the results finished before; the program exits with code 130. */
class Interrupted : public InputError {
 public:
  /** @brief detail: what was kept ("" if nothing to say). */
  explicit Interrupted(const std::string& detail = "")
      : InputError(Preformatted{}, "", 0, "", detail.empty() ? "interrupted" : "interrupted: " + detail) {}
};

/** @brief Installs SIGINT and SIGTERM handlers that only set the interrupt flag (no SA_RESTART). */
void install_interrupt_handlers();

/** @brief True once SIGINT or SIGTERM arrived after install_interrupt_handlers(). */
bool interrupt_requested();

/** @brief Process ids of children killed because of an interrupt (their atomic writes leave "*.tmp.PID" files,
 *  which the program removes). */
std::vector<int> killed_children();

/** @brief Forks; the child (SIGINT and SIGTERM blocked) runs fn and sends its JSON back through a pipe, then
 *  _exit()s. An InputError thrown in the child is re-thrown in the parent as an InputError with the same message;
 *  any other failure (exception, crash, signal) becomes std::runtime_error naming what happened.
 *  @throws Interrupted if the parent is interrupted before or while the child runs (the child is killed and reaped). */
nlohmann::json run_in_child(const std::function<nlohmann::json()>& fn);

}  // namespace hulk
