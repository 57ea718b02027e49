#pragma once
/** @file utf8.hpp
 *  @brief UTF-8 validity of input text: YAML and CSV inputs are UTF-8, and a name with another byte sequence reached
 *  the JSON outputs, whose writer stops on it (an internal error after the work). Pure code. */
#include <cstddef>
#include <string>

namespace hulk {

/** @brief Length in bytes (1 to 4) of the well-formed UTF-8 sequence that starts at text[i], or 0 if the byte there
 *  does not start one (a continuation byte, an overlong form, a surrogate, a code point above U+10FFFF, or a
 *  sequence cut short by the end of the text). @pre i < text.size(). */
inline std::size_t utf8_sequence_length(const std::string& text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = byte(i);
  std::size_t extra = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (c < 0x80) {
    return 1;
  } else if (c >= 0xC2 && c <= 0xDF) {
    extra = 1;
  } else if (c >= 0xE0 && c <= 0xEF) {
    extra = 2;
    if (c == 0xE0) lo = 0xA0;  // no overlong forms
    if (c == 0xED) hi = 0x9F;  // no surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    extra = 3;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;  // <= U+10FFFF
  } else {
    return 0;
  }
  if (i + extra >= text.size()) return 0;  // the sequence is cut short by the end of the text
  for (std::size_t k = 1; k <= extra; ++k) {
    const unsigned char b = byte(i + k);
    if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) return 0;
  }
  return extra + 1;
}

/** @brief Offset of the first byte of `text` that does not start or continue a well-formed UTF-8 sequence (overlong
 *  forms, surrogates and code points above U+10FFFF included), or std::string::npos if the text is valid UTF-8. */
inline std::size_t first_invalid_utf8(const std::string& text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t n = utf8_sequence_length(text, i);
    if (n == 0) return i;
    i += n;
  }
  return std::string::npos;
}

}  // namespace hulk
