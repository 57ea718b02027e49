#include "sim/lab/learned_backend.hpp"

namespace hulk {

LearnedDecoder least_work_decoder() {
  LearnedDecoder d;
  d.candidates = 1;
  d.greedy_candidate = false;  // with one candidate: the placer returns the argmax decode of the first view
  return d;
}

}  // namespace hulk
