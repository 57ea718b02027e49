// Unit strings -> SI doubles. Only this file knows unit suffixes; everything inside hulk is SI.
#include "sim/core/units.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <utility>
#include <vector>

namespace hulk {
namespace {

struct Suffix {
  const char* text;
  double factor;
};

// Every suffix of every unit kind, so that a suffix of the wrong kind ("10ms" for a bandwidth) gets a message
// naming the kind it belongs to instead of a generic "garbage".
const std::vector<Suffix> kBandwidth = {{"bps", 1.0 / 8},
                                        {"kbps", 1e3 / 8},
                                        {"Kbps", 1e3 / 8},
                                        {"Mbps", 1e6 / 8},
                                        {"Gbps", 1e9 / 8},
                                        {"Tbps", 1e12 / 8},
                                        {"Bps", 1.0},
                                        {"kBps", 1e3},
                                        {"KBps", 1e3},
                                        {"MBps", 1e6},
                                        {"GBps", 1e9},
                                        {"TBps", 1e12},
                                        {"B/s", 1.0},
                                        {"kB/s", 1e3},
                                        {"KB/s", 1e3},
                                        {"MB/s", 1e6},
                                        {"GB/s", 1e9},
                                        {"TB/s", 1e12},
                                        {"Kibps", 1024.0 / 8},
                                        {"Mibps", 1048576.0 / 8},
                                        {"Gibps", 1073741824.0 / 8},
                                        {"KiBps", 1024.0},
                                        {"MiBps", 1048576.0},
                                        {"GiBps", 1073741824.0}};
const std::vector<Suffix> kLatency = {{"ns", 1e-9}, {"us", 1e-6}, {"\xC2\xB5s", 1e-6},
                                      {"ms", 1e-3}, {"s", 1.0},   {"min", 60.0}};
const std::vector<Suffix> kBytes = {
    {"B", 1.0},   {"kB", 1e3},     {"KB", 1e3},        {"MB", 1e6},           {"GB", 1e9},
    {"TB", 1e12}, {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"TiB", 1099511627776.0}};
const std::vector<Suffix> kFlops = {
    {"f", 1.0},        {"kf", 1e3},      {"Mf", 1e6},      {"Gf", 1e9},     {"Tf", 1e12},     {"Pf", 1e15},
    {"F", 1.0},        {"kF", 1e3},      {"MF", 1e6},      {"GF", 1e9},     {"TF", 1e12},     {"PF", 1e15},
    {"FLOPS", 1.0},    {"kFLOPS", 1e3},  {"MFLOPS", 1e6},  {"GFLOPS", 1e9}, {"TFLOPS", 1e12}, {"PFLOPS", 1e15},
    {"flops", 1.0},    {"kflops", 1e3},  {"Mflops", 1e6},  {"Gflops", 1e9}, {"Tflops", 1e12}, {"Pflops", 1e15},
    {"Tflop/s", 1e12}, {"Gflop/s", 1e9}, {"Pflop/s", 1e15}};

struct Kind {
  const char* name;      // "a bandwidth"
  const char* examples;  // "'10Gbps', '1.25GBps' or a plain number of bytes/s"
  const std::vector<Suffix>* suffixes;
};

const Kind kBandwidthKind{"a bandwidth", "like '10Gbps', '100Mbps', '1.25GBps' or a plain number of bytes/s",
                          &kBandwidth};
const Kind kLatencyKind{"a latency", "like '50us', '75ms', '0.1s' or a plain number of seconds", &kLatency};
const Kind kBytesKind{"a size", "like '40GB', '16GiB', '512MB' or a plain number of bytes", &kBytes};
const Kind kFlopsKind{"a compute rate", "like '312Tf', '19.5TFLOPS' or a plain number of flop/s", &kFlops};

std::string trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

const Kind* kind_of_suffix(const std::string& suffix) {
  for (const Kind* k : {&kBandwidthKind, &kLatencyKind, &kBytesKind, &kFlopsKind})
    for (const auto& s : *k->suffixes)
      if (suffix == s.text) return k;
  return nullptr;
}

[[noreturn]] void bad(const std::string& text, const Kind& kind, const std::string& why) {
  std::string msg = "'" + text + "' is not " + kind.name;
  if (!why.empty()) msg += " (" + why + ")";
  msg += ": expected " + std::string(kind.name) + " " + kind.examples;
  throw std::invalid_argument(msg);
}

// Parses "<number><suffix>" with the suffix taken from kind (none = base unit). allow_zero: latency and sizes of
// windows may be 0; bandwidths, memories and flop rates may not.
double parse(const std::string& raw, const Kind& kind, bool allow_zero) {
  const std::string text = trim(raw);
  if (text.empty()) bad(raw, kind, "empty");
  const char* begin = text.c_str();
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(begin, &end);
  if (end == begin) bad(text, kind, "no number");
  // strtod accepts "inf", "nan" and hex floats; none of them is a sensible quantity.
  if (errno == ERANGE || !std::isfinite(value)) bad(text, kind, "number out of range");
  for (const char* p = begin; p < end; ++p)
    if (std::isalpha(static_cast<unsigned char>(*p)) && *p != 'e' && *p != 'E') bad(text, kind, "not a number");
  const std::string suffix = trim(std::string(end));
  double factor = 1.0;
  if (!suffix.empty()) {
    bool found = false;
    for (const auto& s : *kind.suffixes)
      if (suffix == s.text) {
        factor = s.factor;
        found = true;
        break;
      }
    if (!found) {
      const Kind* other = kind_of_suffix(suffix);
      if (other != nullptr) bad(text, kind, "'" + suffix + "' is the unit of " + other->name);
      bad(text, kind, "unknown unit '" + suffix + "'");
    }
  }
  if (value < 0) bad(text, kind, "negative");
  if (value == 0 && !allow_zero) bad(text, kind, "must be greater than zero");
  // "1e308Tbps" is a finite number times a finite factor, but not a finite quantity.
  if (!std::isfinite(value * factor)) bad(text, kind, "number out of range");
  return value * factor;
}

}  // namespace

bool parse_plain_decimal(const std::string& text, double& value) {
  if (text.empty() || text.find_first_not_of("0123456789.eE+-") != std::string::npos) return false;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(v)) return false;
  value = v;
  return true;
}

double parse_bandwidth_Bps(const std::string& text) { return parse(text, kBandwidthKind, false); }
double parse_latency_s(const std::string& text) { return parse(text, kLatencyKind, true); }
double parse_bytes(const std::string& text) { return parse(text, kBytesKind, false); }
double parse_flops(const std::string& text) { return parse(text, kFlopsKind, false); }

}  // namespace hulk
