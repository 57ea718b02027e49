#include "sim/core/number_text.hpp"

#include <cmath>
#include <cstdio>

namespace hulk {

std::string sig4(double v, double integer_from) {
  char buf[64];
  if (std::fabs(v) >= integer_from && std::isfinite(v))
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else
    std::snprintf(buf, sizeof buf, "%#.4g", v);
  return buf;
}

double relative_gap(double value, double reference) {
  const double gap = value / reference - 1.0;
  return std::fabs(gap) < 1e-9 ? 0.0 : gap;
}

}  // namespace hulk
