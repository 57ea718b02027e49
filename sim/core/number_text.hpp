#pragma once
/** @file number_text.hpp
 *  @brief Numbers as the summaries print them (compare, reproduce, fidelity): four significant digits without an
 *  exponent, and relative differences without rounding noise. */
#include <string>

namespace hulk {

/** @brief v to 4 significant digits, trailing zeros kept ("1.000"); values of at least `integer_from` in
 *  magnitude print as integers ("20445", not "2.044e+04"); non-finite values as printf prints them. */
std::string sig4(double v, double integer_from);

/** @brief value / reference - 1, and exactly 0 within rounding (|difference| < 1e-9): two times that are the same
 *  up to the last bits (a sum taken in another order) would otherwise print as a gap like "4e-14%" or "-0.0%". */
double relative_gap(double value, double reference);

}  // namespace hulk
