#include "sim/scenario/event_values.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "sim/core/units.hpp"
#include "sim/scenario/bounds.hpp"

namespace hulk::detail {

namespace {

const Bound kTime{0.0, 1e8, "a time", "0s .. 1e8s", "three years of simulated training; no run lasts that long"};

void replace_all_in(std::string& s, const std::string& from, const std::string& to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

/** True if text is "N%" with N a finite decimal number; factor = N / 100. */
bool percent(const std::string& text, double& factor) {
  const std::string t = trim(text);
  if (t.size() < 2 || t.back() != '%') return false;
  const std::string num = trim(t.substr(0, t.size() - 1));
  double v = 0;
  if (!parse_plain_decimal(num, v)) return false;
  factor = v / 100;
  return true;
}

}  // namespace

std::string trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::string seconds_text(double v) {
  std::ostringstream os;
  os << v << " s";
  return os.str();
}

std::string time_problem(const std::string& text, double& out) {
  try {
    out = parse_latency_s(text);
  } catch (const std::invalid_argument& e) {
    std::string m = e.what();
    replace_all_in(m, "a latency like '50us', '75ms', '0.1s'", "a time like '120s', '500ms', '5min'");
    replace_all_in(m, "a latency", "a time");
    return m;
  }
  return bound_problem(out, kTime, text);
}

std::string share_problem(const std::string& text, double max_factor, const std::string& what, double& out) {
  double f = 0;
  const std::string range = "[0.01%, " + std::to_string(static_cast<long long>(max_factor * 100)) + "%]";
  if (!percent(text, f)) return "'" + text + "' is not a percentage: expected " + what + " like '50%'";
  if (!(f >= kMinShareFactor * (1 - 1e-12) && f <= max_factor))  // "0.01%" / 100 may round below 1e-4
    return "'" + text + "' is out of range (expected " + what + " in " + range + ")";
  out = f;
  return "";
}

std::string bandwidth_problem(const std::string& text, EventSpec& e) {
  if (text.find('%') != std::string::npos)
    return share_problem(text, kMaxEventFactor, "a share of the link's own bandwidth", e.bandwidth_factor);
  double v = 0;
  try {
    v = parse_bandwidth_Bps(text);
  } catch (const std::invalid_argument& ex) {
    return std::string(ex.what()) + ", or a share of the link's own bandwidth like '10%'";
  }
  const std::string problem = bound_problem(v, bounds::kBandwidth, text);
  if (problem.empty()) e.bandwidth_Bps = v;
  return problem;
}

}  // namespace hulk::detail
