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
#include "tools/cli/command_groups.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/out_check.hpp"
#include "sim/core/did_you_mean.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/subprocess.hpp"

namespace {

using hulk::cli::OutKind;

/** What each command's --out names, by its path ("gnn train"); commands not listed have no --out to check. */
const std::map<std::string, OutKind> kOutKinds = {
    {"simulate", OutKind::folder},      {"sweep", OutKind::folder},         {"gnn gen-data", OutKind::folder},
    {"reproduce", OutKind::folder},     {"compare", OutKind::file},         {"place", OutKind::file},
    {"gnn train", OutKind::file},       {"gnn eval", OutKind::file},        {"compare generated", OutKind::file},
    {"gnn families", OutKind::file},    {"bench", OutKind::file},  // bench: its --csv
    {"plan", OutKind::folder},          {"plan eval", OutKind::file}};

/** The command of `parent` called `name`, or nullptr. */
CLI::App* find_command(CLI::App& parent, const std::string& name) {
  for (CLI::App* sub : parent.get_subcommands({}))
    if (sub->check_name(name)) return sub;
  return nullptr;
}

/** The command named by the leading words of `args` (nested commands followed: "gnn train"), or nullptr; `words`
 *  gets how many words name it. */
CLI::App* given_command(CLI::App& app, const std::vector<std::string>& args, std::size_t& words) {
  CLI::App* cmd = nullptr;
  words = 0;
  for (std::size_t i = 1; i < args.size(); ++i) {
    CLI::App* sub = find_command(cmd ? *cmd : app, args[i]);
    if (sub == nullptr) break;
    cmd = sub;
    words = i;
  }
  return cmd;
}

/** Every command and nested command with its path ("plan eval"). */
void all_commands(CLI::App& parent, const std::string& prefix, std::vector<std::pair<std::string, CLI::App*>>& out) {
  for (CLI::App* sub : parent.get_subcommands({})) {
    const std::string path = prefix.empty() ? sub->get_name() : prefix + " " + sub->get_name();
    out.emplace_back(path, sub);
    all_commands(*sub, path, out);
  }
}

/** Messages of errors without a file start with "<input>: "; on the command line the option named next is clearer. */
std::string without_input_prefix(const std::string& message) {
  const std::string prefix = "<input>: ";
  return message.rfind(prefix, 0) == 0 ? message.substr(prefix.size()) : message;
}

/** For an unexpected argument: "unknown option '--budgt' of simulate (did you mean '--budget'?)", or "" if the
 *  unexpected argument is not an unknown --option (CLI11's own message is kept then). */
std::string unknown_option_message(CLI::App& app, const std::vector<std::string>& args) {
  std::size_t words = 0;
  CLI::App* sub = given_command(app, args, words);
  if (sub == nullptr) return "";
  std::vector<std::string> known;
  for (const CLI::Option* opt : sub->get_options())
    for (const auto& name : opt->get_lnames()) known.push_back("--" + name);
  for (std::size_t i = words + 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
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

/** False (after one error line) if a word where a command is expected names none: "did you mean" it. Such a word
 *  is the first argument, or the one after a group of commands that has no work of its own (`hulk gnn trian`). */
bool known_command(CLI::App& app, const std::vector<std::string>& args) {
  CLI::App* parent = &app;
  for (std::size_t i = 1; i < args.size() && args[i][0] != '-'; ++i) {
    std::vector<std::string> names;
    for (const CLI::App* sub : parent->get_subcommands({})) names.push_back(sub->get_name());
    CLI::App* sub = find_command(*parent, args[i]);
    if (sub == nullptr) {
      if (parent != &app && parent->get_require_subcommand_min() == 0) return true;  // a positional argument
      const std::string where = parent == &app ? "" : " of " + parent->get_name();
      std::cerr << "hulk: error: "
                << one_line("unknown command '" + args[i] + "'" + where + hulk::suggestion_suffix(args[i], names))
                << " (see hulk " << (parent == &app ? "" : parent->get_name() + " ") << "--help)\n";
      return false;
    }
    if (sub->get_subcommands({}).empty()) return true;
    parent = sub;
  }
  return true;
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

/** Every command, the topic commands nested under their topic (gnn, plan eval, compare generated). */
void register_commands(CLI::App& app) {
  hulk::cli::register_simulate_commands(app);
  hulk::cli::register_compare_commands(app);
  hulk::cli::register_sweep_commands(app);
  hulk::cli::register_reproduce_command(app);
  hulk::cli::register_plan_command(app);
  hulk::cli::register_plan_eval_command(*find_command(app, "plan"));
  hulk::cli::register_fidelity_command(app);
  CLI::App* gnn = app.add_subcommand("gnn", "The learned placer: generate data, train, evaluate (per family)");
  gnn->require_subcommand(1);
  hulk::cli::register_gnn_commands(*gnn);
  hulk::cli::register_gnn_families_command(*gnn);
  hulk::cli::register_jobs_eval_command(*find_command(app, "compare"));
  hulk::cli::register_bench_command(app);
}

/** Checks the given command's --out once the command line is parsed, before its callback does any work. */
void check_out_once_parsed(CLI::App& app, OutTarget& out) {
  std::vector<std::pair<std::string, CLI::App*>> commands;
  all_commands(app, "", commands);
  for (const auto& [path, sub] : commands) {
    const auto kind = kOutKinds.find(path);
    if (kind != kOutKinds.end())
      sub->parse_complete_callback([sub = sub, kind, &out] { check_out(*sub, kind->second, out); });
  }
}

}  // namespace

int main(int argc, char** argv) {
  hulk::install_interrupt_handlers();
  CLI::App app{"hulk: simulate DL training on multi-region GPU clusters and find where each rank should run"};
  app.require_subcommand(1);
  // The file formats too: a model or data set written by another build says which format it needs.
  app.set_version_flag("--version", std::string(hulk::cli::kHulkVersion) + " (" + hulk::gnn::format_summary() + ")");
  register_commands(app);

  std::string notice;
  const std::vector<std::string> args =
      hulk::cli::with_current_command_names(std::vector<std::string>(argv, argv + argc), notice);
  if (!notice.empty()) std::cerr << "hulk: note: " << notice << "\n";
  if (!known_command(app, args)) return 2;
  std::size_t command_words = 0;
  given_command(app, args, command_words);
  std::string command_path;  // "gnn train ": for "see hulk gnn train --help"
  for (std::size_t i = 1; i <= command_words; ++i) command_path += args[i] + " ";
  app.name(args[0]);  // the usage line's program, as parse(argc, argv) would set it

  OutTarget out;
  check_out_once_parsed(app, out);

  auto fail = [&out](int code) {
    if (!out.path.empty()) hulk::cli::clean_out(out.path, out.kind, hulk::killed_children(), out.created);
    return code;
  };
  try {
    app.parse(std::vector<std::string>(args.rbegin(), args.rend() - 1));  // CLI11 takes them last first
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    const std::string unknown =
        dynamic_cast<const CLI::ExtrasError*>(&e) ? unknown_option_message(app, args) : std::string();
    std::cerr << "hulk: error: " << one_line(unknown.empty() ? std::string(e.what()) : unknown) << " (see hulk "
              << command_path << "--help)\n";
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
