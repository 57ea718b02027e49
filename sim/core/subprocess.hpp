#pragma once
/** @file subprocess.hpp
 *  @brief Runs a function in a forked child process and returns its JSON answer. SimGrid's engine cannot be
 *  reset and torch's thread pool must not be forked, so every simulation (and every torch inference in the
 *  orchestrating commands) runs in its own child; the parent never starts either. */
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

namespace hulk {

/** @brief Forks; the child runs fn and sends its JSON back through a pipe, then _exit()s.
 *  An InputError thrown in the child is re-thrown in the parent as an InputError with the same message;
 *  any other failure (exception, crash, signal) becomes std::runtime_error naming what happened. */
nlohmann::json run_in_child(const std::function<nlohmann::json()>& fn);

}  // namespace hulk
