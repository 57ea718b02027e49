#include "gnn/format_version.hpp"

namespace hulk::gnn {

const char* format_summary() { return "dataset format 1, model format 4"; }

}  // namespace hulk::gnn
