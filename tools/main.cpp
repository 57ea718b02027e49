// The hulk command-line program. Every user mistake surfaces as hulk::InputError and becomes exactly one line on
// stderr and exit code 2 (docs/design.md); internal failures exit 1; an interrupt (SIGINT, SIGTERM)
// becomes one line "interrupted" and exit code 130, as a shell reports a Ctrl-C.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "gnn/format_version.hpp"
#include "tools/commands.hpp"
#include "tools/out_check.hpp"
#include "sim/core/did_you_mean.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/subprocess.hpp"

namespace {

using hulk::cli::OutKind;

/** What each command's --out names; commands not listed have no --out to check. */
const std::map<std::string, OutKind> kOutKinds = {
    {"simulate", OutKind::folder}, {"sweep", OutKind::folder}, {"gen-data", OutKind::folder},
    {"reproduce", OutKind::folder}, {"compare", OutKind::file}, {"place", OutKind::file},
    {"train", OutKind::file}, {"gnn-eval", OutKind::file}, {"jobs-eval", OutKind::file},
    {"gnn-families", OutKind::file}, {"bench", OutKind::file},  // bench: its --csv
    {"plan", OutKind::folder}, {"plan-eval", OutKind::file}};

/** Messages of errors without a file start with "<input>: "; on the command line the option named next is clearer. */
std::string without_input_prefix(const std::string& message) {
  const std::string prefix = "<input>: ";
  return message.rfind(prefix, 0) == 0 ? message.substr(prefix.size()) : message;
}

/** For an unexpected argument: "unknown option '--budgt' of simulate (did you mean '--budget'?)", or "" if the
 *  unexpected argument is not an unknown --option (CLI11's own message is kept then). */
std::string unknown_option_message(CLI::App& app, int argc, char** argv) {
  if (argc < 2) return "";
  CLI::App* sub = app.get_subcommand_ptr(argv[1]).get();
  if (sub == nullptr) return "";
  std::vector<std::string> known;
  for (const CLI::Option* opt : sub->get_options())
    for (const auto& name : opt->get_lnames()) known.push_back("--" + name);
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--", 0) != 0 || arg == "--") continue;
    const std::string name = arg.substr(0, arg.find('='));
    bool found = false;
    for (const auto& k : known) found = found || k == name;
    if (!found)
      return "unknown option '" + name + "' of " + sub->get_name() + hulk::suggestion_suffix(name, known);
  }
  return "";
}

/** A message that did not come from an InputError on one line: its control characters escaped. */
std::string one_line(const std::string& message) { return hulk::escape_control_chars(message); }

/** True once everything printed on the standard output has reached it (false, e.g., on a full disk or closed pipe:
 *  a placement printed there would be lost without a word). */
bool stdout_written() {
  std::cout.flush();
  return std::cout.good() && std::fflush(stdout) == 0 && !std::ferror(stdout);
}

/** False (after one error line) if the first argument is a word that names no command: "did you mean" it. */
bool known_command(CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return true;
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
  const std::string word = argv[1];
  for (const auto& n : names)
    if (n == word) return true;
  std::cerr << "hulk: error: " << one_line("unknown command '" + word + "'" + hulk::suggestion_suffix(word, names))
            << " (see hulk --help)\n";
  return false;
}

/** The --out of the subcommand that was given, and its kind ("" if none). */
struct OutTarget {
  std::string path;
  OutKind kind = OutKind::folder;
  std::vector<std::string> created;
};

/** The command's --out (bench: --csv), if given: refused when it is one of the command's inputs, else prepared
 *  (folders created, recorded in `out` so that a failed run removes them). */
void check_out(const CLI::App& sub, OutKind kind, OutTarget& out) {
  const std::string option = sub.get_name() == "bench" ? "--csv" : "--out";
  const CLI::Option* opt = sub.get_option_no_throw(option);
  if (opt == nullptr || opt->empty()) return;  // reproduce's default folder is checked as given too
  out.path = opt->as<std::string>();
  out.kind = kind;
  std::vector<std::string> inputs;  // every other value given: the command's scenario, data, model files
  for (const CLI::Option* o : sub.get_options())
    if (o != opt)
      for (const std::string& value : o->results()) {
        inputs.push_back(value);
        // and the placement files of a method list ("--methods file:p.json,greedy", "--placement file:p.json")
        std::stringstream items(value);
        for (std::string item; std::getline(items, item, ',');)
          if (item.rfind("file:", 0) == 0) inputs.push_back(item.substr(5));
      }
  hulk::cli::refuse_input_as_out(out.path, out.kind, inputs, option);
  hulk::cli::prepare_out(out.path, out.kind, out.created, option);
}

}  // namespace

int main(int argc, char** argv) {
  hulk::install_interrupt_handlers();
  CLI::App app{"hulk: simulate DL training on multi-region GPU clusters and find where each rank should run"};
  app.require_subcommand(1);
  // The file formats too: a model or data set written by another build says which format it needs.
  app.set_version_flag("--version", std::string(hulk::cli::kHulkVersion) + " (" + hulk::gnn::format_summary() + ")");
  hulk::cli::register_simulate_commands(app);
  hulk::cli::register_compare_commands(app);
  hulk::cli::register_sweep_commands(app);
  hulk::cli::register_reproduce_command(app);
  hulk::cli::register_gnn_commands(app);
  hulk::cli::register_gnn_moves_commands(app);
  hulk::cli::register_bench_command(app);
  hulk::cli::register_fidelity_command(app);
  hulk::cli::register_jobs_eval_command(app);
  hulk::cli::register_gnn_families_command(app);
  hulk::cli::register_plan_command(app);
  hulk::cli::register_plan_eval_command(app);

  if (!known_command(app, argc, argv)) return 2;

  // --out is checked once the command line is parsed and before the command's callback does any work.
  OutTarget out;
  for (CLI::App* sub : app.get_subcommands({})) {
    const auto kind = kOutKinds.find(sub->get_name());
    if (kind != kOutKinds.end())
      sub->parse_complete_callback([sub, kind, &out] { check_out(*sub, kind->second, out); });
  }

  auto fail = [&out](int code) {
    if (!out.path.empty()) hulk::cli::clean_out(out.path, out.kind, hulk::killed_children(), out.created);
    return code;
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    const std::string unknown =
        dynamic_cast<const CLI::ExtrasError*>(&e) ? unknown_option_message(app, argc, argv) : std::string();
    std::cerr << "hulk: error: " << one_line(unknown.empty() ? std::string(e.what()) : unknown) << " (see hulk "
              << (argc > 1 && argv[1][0] != '-' ? std::string(argv[1]) + " " : std::string()) << "--help)\n";
    return fail(2);
  } catch (const hulk::InputError& e) {
    // An error caused by the interrupt (a child killed mid-work) is the interrupt, not a failure of its own; so is
    // an Interrupted thrown by the GNN plugin, whose copy of the interrupt flag is not this program's.
    const bool detailed = dynamic_cast<const hulk::Interrupted*>(&e) != nullptr;
    if (hulk::interrupt_requested() || detailed) {
      std::cerr << "hulk: " << (detailed ? std::string(e.what()) : std::string("interrupted")) << "\n";
      return fail(130);
    }
    // Already one line, control characters escaped (errors.hpp); several independent errors, one line each.
    std::cerr << "hulk: error: " << without_input_prefix(e.what()) << "\n";
    return fail(2);
  } catch (const hulk::OutputError& e) {
    std::cerr << "hulk: error: " << one_line(e.what()) << "\n";
    return fail(1);
  } catch (const std::exception& e) {
    if (hulk::interrupt_requested()) {
      std::cerr << "hulk: interrupted\n";
      return fail(130);
    }
    std::cerr << "hulk: internal error: " << one_line(e.what()) << "\n";
    return fail(1);
  }
  // A command that kept what finished before the interrupt (compare prints and writes the finished methods) still
  // reports that it was cut short.
  if (hulk::interrupt_requested()) {
    std::cerr << "hulk: interrupted\n";
    return 130;
  }
  if (!stdout_written()) {
    std::cerr << "hulk: error: writing the standard output failed: " << std::strerror(errno) << "\n";
    return 1;
  }
  return 0;
}
