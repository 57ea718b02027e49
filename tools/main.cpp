// The hulk command-line program. Every user mistake surfaces as hulk::InputError and becomes exactly one line on
// stderr and exit code 2 (DESIGN.md, conventions 4); internal failures exit 1.
#include <csignal>
#include <iostream>

#include "tools/commands.hpp"
#include "sim/core/errors.hpp"

int main(int argc, char** argv) {
  CLI::App app{"hulk: simulate DL training on multi-region GPU clusters and find where each rank should run"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "hulk 0.1.0");
  hulk::cli::register_simulate_commands(app);
  hulk::cli::register_compare_commands(app);
  hulk::cli::register_sweep_commands(app);
  hulk::cli::register_reproduce_command(app);
  hulk::cli::register_gnn_commands(app);
  hulk::cli::register_bench_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::cerr << "hulk: error: " << e.what() << " (see hulk --help)\n";
    return 2;
  } catch (const hulk::InputError& e) {
    std::cerr << "hulk: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "hulk: internal error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
