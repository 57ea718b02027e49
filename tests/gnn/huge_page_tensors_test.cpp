// Torch's CPU tensors through the huge-page allocator (gnn/huge_page_tensors.hpp): same scores, aligned buffers.
#include <gtest/gtest.h>

#include <c10/core/CPUAllocator.h>
#include <torch/torch.h>

#include <cstdint>

#include "gnn/huge_page_tensors.hpp"
#include "gnn/model.hpp"
#include "gnn_test_helpers.hpp"
#include "sim/core/huge_page_allocator.hpp"
#include "sim/features/reference_graph.hpp"

namespace hulk::gnn {
namespace {

TEST(HugePageTensors, SameScoresBitForBitAndLargeTensorsAligned) {
  // A 1,024-node graph, so the forward pass makes tensors on both sides of the 2 MiB threshold.
  const Scenario flat = testing::grid_scenario(16, 64, 1, Parallelism{64, 1, 16});
  torch::manual_seed(5);
  PlacementGnn model{ModelConfig{}};
  const ClusterGraph graph = build_cluster_graph(flat, nullptr, GraphOptions{ModelConfig{}.nearest_neighbours});
  const c10::Allocator* before = c10::GetCPUAllocator();
  const RoleScores plain = predict_scores(model, graph);

  use_huge_page_tensors();
  use_huge_page_tensors();  // idempotent
  EXPECT_NE(c10::GetCPUAllocator(), before);
  const RoleScores advised = predict_scores(model, graph);
  EXPECT_EQ(advised.roles, plain.roles);
  EXPECT_EQ(advised.values, plain.values);  // bit for bit: only where the memory lives changed

  const std::size_t huge = HugePageAllocator<char>::kHugePageBytes;
  const torch::Tensor large = torch::ones({static_cast<long>(huge / sizeof(float)) + 1});
  const torch::Tensor small = torch::ones({3});
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(large.data_ptr()) % huge, 0u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(small.data_ptr()) % 64, 0u);
  EXPECT_EQ(large.sum().item<float>(), static_cast<float>(large.numel()));
}

}  // namespace
}  // namespace hulk::gnn
