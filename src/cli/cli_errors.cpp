#include "cli/cli_errors.hpp"

#include <algorithm>
#include <iostream>

#include "util/strings.hpp"

namespace gpucheck {

namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> out;
  for (const CLI::App* s : app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); }))
    out.push_back(s->get_name());
  return out;
}

// The command's own option names, then those of the commands above it (a
// global option is taken after a command too).
std::vector<std::string> option_names(const CLI::App& app) {
  std::vector<std::string> out;
  for (const CLI::App* a = &app; a; a = a->get_parent())
    for (const CLI::Option* o : a->get_options()) {
      if (o->get_group().empty()) continue;
      for (const auto& l : o->get_lnames()) out.push_back("--" + l);
      for (const auto& s : o->get_snames()) out.push_back("-" + s);
    }
  return out;
}


std::string unexpected(const CLI::App& app, const std::string& word) {
  const std::string where = "`" + command_path(app) + "`";
  if (starts_with(word, "-")) {
    const std::string name = word.substr(0, word.find('='));
    const auto meant = did_you_mean(name, option_names(app));
    return "unknown option " + in_quotes(name) + " for " + where +
           (meant.empty() ? "; `" + command_path(app) + " -h` lists its options" : "; did you mean " + meant + "?");
  }
  if (const auto commands = command_names(app); !commands.empty()) {
    const auto meant = did_you_mean(word, commands);
    return "unknown command " + in_quotes(word) + (app.get_parent() ? " for " + where : "") +
           (meant.empty() ? "; the commands are " + join(commands, ", ") : "; did you mean " + meant + "?");
  }
  return "unexpected argument " + in_quotes(word) + ": " + where + " takes no more arguments";
}

}  // namespace

std::ostream& error_line() { return std::cerr << "gpucheck: error: "; }

std::string in_quotes(std::string_view s) { return "\"" + std::string(s) + "\""; }

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(1, word.size() / 3) + 1;
  for (const auto& c : candidates) {
    const auto d = edit_distance(to_lower(word), to_lower(c));
    if (d < best_distance) best = c, best_distance = d;
  }
  return best;
}

const CLI::App& selected_command(const CLI::App& app) {
  const CLI::App* at = &app;
  for (auto subs = at->get_subcommands(); !subs.empty(); subs = at->get_subcommands()) at = subs.front();
  return *at;
}

std::string command_path(const CLI::App& app) {
  std::string out = app.get_name();
  for (const CLI::App* a = app.get_parent(); a; a = a->get_parent()) out = a->get_name() + " " + out;
  return out;
}

std::string parse_error_text(const CLI::App& app, const CLI::ParseError& e) {
  const CLI::App& at = selected_command(app);
  const std::string what = e.what();
  if (dynamic_cast<const CLI::ExtrasError*>(&e)) {
    // CLI11 names the words it did not take after "expected: ".
    const auto colon = what.find("expected: ");
    const std::string rest = colon == std::string::npos ? what : what.substr(colon + 10);
    // An option among them is what went wrong; its value follows it.
    const auto words = split(rest, ' ');
    for (auto w : words)
      if (starts_with(w, "-")) return unexpected(at, std::string(w));
    return unexpected(at, words.empty() ? rest : std::string(words.front()));
  }
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) && what.find("missing") != std::string::npos)
    return what.substr(0, what.find(':')) + " needs a value";
  if (dynamic_cast<const CLI::RequiredError*>(&e)) {
    if (what.find("subcommand") != std::string::npos) {
      // "gpucheck matrix updat": the word was no command of it.
      if (const auto rest = app.remaining(true); !rest.empty()) return unexpected(at, rest.front());
      return "`" + command_path(at) + "` needs a command: " + join(command_names(at), ", ");
    }
    // CLI11: "shell is required", "--out is required"
    if (const auto end = what.find(" is required"); end != std::string::npos) {
      const std::string name = what.substr(0, end);
      return "`" + command_path(at) + "` needs " + (starts_with(name, "-") ? name : "its " + to_upper(name) + " argument") + "; `" +
             command_path(at) + " -h` says what it takes";
    }
  }
  return what;
}

}  // namespace gpucheck
