#pragma once
/** @file comma_list.hpp
 *  @brief A command-line list of names separated by commas (`--families`, `--series`): an empty item (`a,`,
 *  `a,,b`, ``) or a name given twice is refused, as `--methods` refuses them (parse_method_list). */
#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "sim/core/errors.hpp"

namespace hulk::cli {

/** @brief The items of `text`. @param option names the option in errors; @param what the items ("family names").
 *  @throws InputError for an empty list, an empty item or an item given twice. */
inline std::vector<std::string> comma_list(const std::string& text, const std::string& option,
                                           const std::string& what) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string item;
  const bool trailing_comma = !text.empty() && text.back() == ',';  // getline gives no last empty item for it
  while (std::getline(ss, item, ',')) {
    if (item.empty() || (trailing_comma && ss.peek() == EOF))
      throw InputError("", 0, option, "'" + text + "' has an empty item (expected " + what +
                                          " separated by single commas)");
    if (std::find(out.begin(), out.end(), item) != out.end())
      throw InputError("", 0, option, "'" + item + "' is listed twice (expected each once)");
    out.push_back(item);
  }
  if (out.empty()) throw InputError("", 0, option, "expected a comma-separated list of " + what);
  return out;
}

}  // namespace hulk::cli
