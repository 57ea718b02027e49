#pragma once
/** @file commands.hpp
 *  @brief Registration of the hulk subcommands. Each registers itself on the app and sets a callback;
 *  callbacks throw hulk::InputError for user mistakes (main turns it into one line + exit code 2). */
#include <CLI/CLI.hpp>

namespace hulk::cli {

/** @brief The program's version (--version, and the manifests of sweeps). */
inline constexpr const char* kHulkVersion = "hulk 0.1.0";

/** @brief validate, simulate. */
void register_simulate_commands(CLI::App& app);
/** @brief place, compare. */
void register_compare_commands(CLI::App& app);
/** @brief sweep, sweep-merge. */
void register_sweep_commands(CLI::App& app);
/** @brief reproduce. */
void register_reproduce_command(CLI::App& app);
/** @brief gen-data, train. */
void register_gnn_commands(CLI::App& app);
/** @brief gen-moves, train-moves (the learned improvement policy). */
void register_gnn_moves_commands(CLI::App& app);
/** @brief bench. */
void register_bench_command(CLI::App& app);
/** @brief fidelity (tools/fidelity_command.cpp). */
void register_fidelity_command(CLI::App& app);

/** @brief `hulk jobs-eval` (tools/cmd_jobs_eval.cpp). */
void register_jobs_eval_command(CLI::App& app);
/** @brief `hulk gnn-families`: the GNN per held-out family (tools/cmd_gnn_families.cpp). */
void register_gnn_families_command(CLI::App& app);

/** @brief `hulk plan` (tools/cmd_plan.cpp) and `hulk plan-eval` (tools/cmd_plan_eval.cpp). */
void register_plan_command(CLI::App& app);
void register_plan_eval_command(CLI::App& app);

}  // namespace hulk::cli
