#pragma once
/** @file csv_text.hpp
 *  @brief One CSV field as every CSV the program writes quotes it: names come from the user (scenario, host, region
 *  and job names may hold a comma or a quote), and a field must never split a row. */
#include <string>

namespace hulk {

/** @brief s as a CSV field: unchanged when it holds no comma, quote or line break; else in double quotes, a quote
 *  doubled and a line break written as a space (every row stays one line, for line-based readers). */
inline std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c == '\n' || c == '\r' ? ' ' : c);
  return out + "\"";
}

}  // namespace hulk
