#pragma once
/** @file errors.hpp
 *  @brief Typed exceptions for user-input problems. The CLI turns them into one line and exit code 2. */
#include <stdexcept>
#include <string>

#include "sim/core/utf8.hpp"

namespace hulk {

/** @brief `text` on one line and in valid UTF-8: newlines and other control characters (echoed from a bad file, say)
 *  escaped as \n, \r or \xNN, tabs as spaces, and every byte that is not part of a well-formed UTF-8 sequence (a
 *  Latin-1 name, say) as \xNN, so that a message stays one line of text whatever the input held. */
inline std::string escape_control_chars(const std::string& text) {
  static const char* hex = "0123456789abcdef";
  const auto escaped = [](unsigned char u) { return std::string("\\x") + hex[u >> 4] + hex[u & 15]; };
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x80) {
      // A well-formed multi-byte sequence is kept whole; a stray byte is escaped alone, and the next byte is looked
      // at afresh (it may start a valid sequence).
      const std::size_t n = utf8_sequence_length(text, i);
      out += n == 0 ? escaped(u) : text.substr(i, n);
      i += n == 0 ? 1 : n;
      continue;
    }
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += ' ';
    else if (u < 0x20 || u == 0x7f) out += escaped(u);
    else out += c;
    ++i;
  }
  return out;
}

/** @brief Index of the first control character of `text` (below 0x20, DEL, or a UTF-8 C1 control U+0080-U+009F
 *  such as NEL), or std::string::npos: names with them would break the one-line messages and the CSV and trace
 *  outputs that carry names. */
inline std::size_t first_control_char(const std::string& text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) return i;
    if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
        static_cast<unsigned char>(text[i + 1]) <= 0x9f)
      return i;
  }
  return std::string::npos;
}

/** @brief A problem with user input (scenario, platform, data file, placement file, model file).
 *  what() is the complete one-line message: "FILE:LINE: KEY: message (expected ...)". */
class InputError : public std::runtime_error {
 public:
  /** @param file path of the offending file ("" if none), @param line 1-based line (0 = unknown),
   *  @param key dotted key path ("" if none), @param message what is wrong and what was expected. */
  InputError(const std::string& file, int line, const std::string& key, const std::string& message)
      : std::runtime_error(format(file, line, key, message)), file_(file), line_(line), key_(key) {}

  /** @brief Tag for re-creating an error whose message is already formatted (e.g. sent by a child process, or
   *  several errors, one formatted line each, joined by newlines). */
  struct Preformatted {};
  InputError(Preformatted, const std::string& file, int line, const std::string& key, const std::string& what)
      : std::runtime_error(what), file_(file), line_(line), key_(key) {}

  const std::string& file() const { return file_; }
  int line() const { return line_; }
  const std::string& key() const { return key_; }

  /** @brief The canonical one-line layout shared by every input error. */
  static std::string format(const std::string& file, int line, const std::string& key, const std::string& message) {
    std::string out = file.empty() ? std::string("<input>") : file;
    if (line > 0) out += ":" + std::to_string(line);
    out += ": ";
    if (!key.empty()) out += key + ": ";
    out += message;
    return escape_control_chars(out);
  }

 private:
  std::string file_;
  int line_;
  std::string key_;
};

/** @brief An output file that could not be written once open (a full disk, an I/O error): not the input's fault,
 *  so the program exits 1 (README "Exit codes"), as for a standard output that cannot be written. what() is one
 *  line: "FILE: what failed: the system's reason". */
class OutputError : public std::runtime_error {
 public:
  OutputError(const std::string& path, const std::string& message) : std::runtime_error(path + ": " + message) {}
};

}  // namespace hulk
