#include "tools/cli/command_groups.hpp"

#include <map>

namespace hulk::cli {
namespace {

/** Former top-level commands and where they are now. */
const std::map<std::string, std::vector<std::string>> kRenamed = {
    {"gen-data", {"gnn", "gen-data"}},     {"train", {"gnn", "train"}},
    {"gnn-eval", {"gnn", "eval"}},         {"gnn-families", {"gnn", "families"}},
    {"sweep-merge", {"sweep", "merge"}},   {"plan-eval", {"plan", "eval"}},
    {"jobs-eval", {"compare", "generated"}}};

}  // namespace

std::vector<std::string> with_current_command_names(const std::vector<std::string>& args, std::string& notice) {
  notice.clear();
  if (args.size() < 2) return args;
  const auto renamed = kRenamed.find(args[1]);
  if (renamed == kRenamed.end()) return args;
  std::vector<std::string> out{args[0]};
  out.insert(out.end(), renamed->second.begin(), renamed->second.end());
  out.insert(out.end(), args.begin() + 2, args.end());
  notice = "`hulk " + args[1] + "` is now `hulk " + renamed->second[0] + " " + renamed->second[1] +
           "`; the old name goes in the next release";
  return out;
}

bool nested_command_given(const CLI::App& cmd) {
  for (const CLI::App* sub : cmd.get_subcommands())
    if (sub->parsed()) return true;
  return false;
}

void require_given(const CLI::App& cmd, std::initializer_list<const char*> names) {
  for (const char* name : names)
    if (cmd.get_option(name)->count() == 0) throw CLI::RequiredError(name);
}

}  // namespace hulk::cli
