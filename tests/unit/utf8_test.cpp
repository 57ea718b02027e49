// UTF-8 validity of input text (sim/core/utf8.hpp).
#include <gtest/gtest.h>

#include <string>

#include "sim/core/utf8.hpp"

namespace hulk {
namespace {

TEST(Utf8, AcceptsWellFormedTextAndFindsTheFirstBadByte) {
  EXPECT_EQ(first_invalid_utf8(""), std::string::npos);
  EXPECT_EQ(first_invalid_utf8("plain ascii"), std::string::npos);
  EXPECT_EQ(first_invalid_utf8("Z\xC3\xBCrich, \xE5\x8C\x97\xE4\xBA\xAC, \xF0\x9F\x98\x80"), std::string::npos);
  EXPECT_EQ(first_invalid_utf8("two\xFFregion"), 3u);                   // never a UTF-8 byte
  EXPECT_EQ(first_invalid_utf8("ab\xC3"), 2u);                          // cut short by the end
  EXPECT_EQ(first_invalid_utf8("a\xC3(b"), 1u);                         // bad continuation
  EXPECT_EQ(first_invalid_utf8("\xC0\xAF"), 0u);                        // overlong '/'
  EXPECT_EQ(first_invalid_utf8("x\xE0\x80\xAF"), 1u);                   // overlong, 3 bytes
  EXPECT_EQ(first_invalid_utf8("\xED\xA0\x80"), 0u);                    // a surrogate
  EXPECT_EQ(first_invalid_utf8("\xF4\x90\x80\x80"), 0u);                // above U+10FFFF
  EXPECT_EQ(first_invalid_utf8("ok \xF4\x8F\xBF\xBF end"), std::string::npos);  // U+10FFFF itself
}

}  // namespace
}  // namespace hulk
