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
/** @brief validate alone (tools/cli/cmd_validate.cpp; register_simulate_commands calls it). */
void register_validate_command(CLI::App& app);
/** @brief place, compare (and `compare generated` under it). */
void register_compare_commands(CLI::App& app);
/** @brief place alone (tools/cli/cmd_place.cpp; register_compare_commands calls it). */
void register_place_command(CLI::App& app);
/** @brief sweep, and `sweep merge` under it. */
void register_sweep_commands(CLI::App& app);
/** @brief reproduce. */
void register_reproduce_command(CLI::App& app);
/** @brief gen-data, train, eval, under `gnn` (the group is passed in). */
void register_gnn_commands(CLI::App& gnn);
/** @brief train under `gnn` (tools/cli/cmd_gnn_train.cpp; register_gnn_commands calls it). */
void register_gnn_train_command(CLI::App& gnn);
/** @brief gen-moves, train-moves, move-policy (the learned improvement policy), under `gnn`. */
void register_gnn_moves_commands(CLI::App& gnn);
/** @brief move-policy under `gnn` (tools/cli/cmd_gnn_move_policy.cpp; register_gnn_moves_commands calls it). */
void register_move_policy_command(CLI::App& gnn);
/** @brief bench. */
void register_bench_command(CLI::App& app);
/** @brief fidelity (tools/cli/cmd_fidelity.cpp). */
void register_fidelity_command(CLI::App& app);

/** @brief `hulk compare generated`: methods on generated clusters shared by several jobs (tools/cli/cmd_jobs_eval.cpp;
 *  `compare` is passed in). */
void register_jobs_eval_command(CLI::App& compare);
/** @brief `hulk gnn families`: the GNN per held-out family (tools/cli/cmd_gnn_families.cpp; `gnn` is passed in). */
void register_gnn_families_command(CLI::App& gnn);

/** @brief `hulk plan` (tools/cli/cmd_plan.cpp). */
void register_plan_command(CLI::App& app);
/** @brief `hulk plan eval` (tools/cli/cmd_plan_eval.cpp; `plan` is passed in). */
void register_plan_eval_command(CLI::App& plan);

}  // namespace hulk::cli
