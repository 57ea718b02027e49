#pragma once
/** @file number_text.hpp
 *  @brief Numbers as the summaries print them (compare, reproduce, fidelity): four significant digits without an
 *  exponent. */
#include <string>

namespace hulk {

/** @brief v to 4 significant digits, trailing zeros kept ("1.000"); values of at least `integer_from` in
 *  magnitude print as integers ("20445", not "2.044e+04"); non-finite values as printf prints them. */
std::string sig4(double v, double integer_from);

}  // namespace hulk
