#include "cli/cli_reference.hpp"

#include <algorithm>
#include <cctype>
#include <functional>

#include "cli/help_text.hpp"
#include "util/strings.hpp"

namespace gpucheck {
namespace {

// "TEXT:{auto,always,never}": CLI11 writes a one_of check's set into the
// type name it prints in --help.
std::vector<std::string> choices_of(const std::string& type_name) {
  const auto open = type_name.find('{'), close = type_name.rfind('}');
  if (open == std::string::npos || close == std::string::npos || close < open) return {};
  std::vector<std::string> out;
  std::string item;
  for (char c : type_name.substr(open + 1, close - open - 1)) {
    if (c == ',') {
      out.push_back(item);
      item.clear();
    } else if (c != ' ') {
      item += c;
    }
  }
  if (!item.empty()) out.push_back(item);
  return out;
}

using Visit = std::function<void(const std::string& path, const CliCommand& c)>;
// Each command with its path below the root ("", "/matrix", "/matrix/update").
void walk(const CliCommand& c, const std::string& path, const Visit& visit) {
  visit(path, c);
  for (const auto& s : c.subcommands) walk(s, path + "/" + s.name, visit);
}

std::string single_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string long_names(const CliOption& o) {
  std::string out;
  for (const auto& n : o.names) out += (out.empty() ? "" : " ") + n;
  return out;
}

// The first clause of a description: what a completion menu has room for
// (help's summaries are whole sentences, help_text.cpp).
std::string first_sentence(const std::string& text) {
  const auto end = text.find_first_of(".:\n");
  return text.substr(0, end);
}

}  // namespace

CliCommand describe_cli(const CLI::App& app) {
  CliCommand c;
  c.name = app.get_name();
  c.description = app.get_description();
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_group().empty()) continue;  // hidden
    // -h and --help are every command's: listed once, at the root.
    const bool help = o == app.get_help_ptr() || o == app.get_help_all_ptr();
    if (help && app.get_parent()) continue;
    if (o->get_positional() && !o->nonpositional()) {
      c.arguments.push_back(CliArgument{o->get_name(), o->get_description(), o->get_required()});
      continue;
    }
    CliOption opt;
    opt.help = help;
    opt.root_only = o->get_group() == kRootOnlyGroup;
    for (const auto& s : o->get_snames()) opt.names.push_back("-" + s);
    for (const auto& l : o->get_lnames()) opt.names.push_back("--" + l);
    opt.takes_value = o->get_type_size_max() > 0 && o->get_expected_max() > 0;
    opt.choices = choices_of(o->get_type_name());
    opt.value_name = o->get_type_name().substr(0, o->get_type_name().find(':'));
    static const std::vector<std::string> kPaths{"FILE", "PATH", "REPORT_OR_DIR", "DIR_OR_FILE", "BUNDLE"};
    if (!opt.choices.empty()) opt.value_kind = ValueKind::choice;
    else if (opt.value_name == "DIR") opt.value_kind = ValueKind::directory;
    else if (std::find(kPaths.begin(), kPaths.end(), opt.value_name) != kPaths.end()) opt.value_kind = ValueKind::file;
    opt.description = o->get_description();
    c.options.push_back(std::move(opt));
  }
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); }))
    c.subcommands.push_back(describe_cli(*sub));
  return c;
}

namespace {

std::string bash_reply(const CliOption& o) {
  switch (o.value_kind) {
    case ValueKind::choice: return "COMPREPLY=($(compgen -W " + single_quoted(join(o.choices, " ")) + " -- \"$cur\"))";
    case ValueKind::file: return "COMPREPLY=($(compgen -f -- \"$cur\"))";
    case ValueKind::directory: return "COMPREPLY=($(compgen -d -- \"$cur\"))";
    case ValueKind::none: break;
  }
  return "COMPREPLY=()";
}

// The root's options that a command takes too: all but --version and --json.
std::string options_below(const CliCommand& root) {
  std::string out;
  for (const auto& o : root.options)
    if (!o.root_only) out += (out.empty() ? "" : " ") + long_names(o);
  return out;
}

}  // namespace

std::string bash_completion(const CliCommand& root) {
  std::string paths, values, per_command;
  walk(root, "", [&](const std::string& path, const CliCommand& c) {
    if (!path.empty()) paths += (paths.empty() ? "" : "|") + single_quoted(path);
    std::string opts, subs;
    for (const auto& o : c.options) {
      opts += (opts.empty() ? "" : " ") + long_names(o);
      if (!o.takes_value) continue;
      for (const auto& n : o.names) values += "    " + single_quoted(path + ":" + n) + ") " + bash_reply(o) + "; return ;;\n";
    }
    for (const auto& s : c.subcommands) subs += (subs.empty() ? "" : " ") + s.name;
    per_command += "    " + single_quoted(path) + ") opts=" + single_quoted(opts) + "; subs=" + single_quoted(subs) + " ;;\n";
  });
  std::string root_values;  // the root's options are taken after any subcommand too
  for (const auto& o : root.options)
    if (o.takes_value)
      for (const auto& n : o.names) root_values += "    *" + single_quoted(":" + n) + ") " + bash_reply(o) + "; return ;;\n";
  const std::string root_opts = options_below(root);
  return "# bash completion for gpucheck; generated by `gpucheck completion bash` from its --help definitions.\n"
         "_gpucheck() {\n"
         "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\" path=\"\" i opts subs\n"
         "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
         "    case \"$path/${COMP_WORDS[i]}\" in\n"
         "      " + paths + ") path=\"$path/${COMP_WORDS[i]}\" ;;\n"
         "    esac\n"
         "  done\n"
         "  case \"$path:$prev\" in\n" + values + root_values +
         "  esac\n"
         "  case \"$path\" in\n" + per_command +
         "  esac\n"
         "  [[ -n $path ]] && opts=\"$opts " + root_opts + "\"\n"
         "  if [[ $cur == -* ]]; then\n"
         "    COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
         "  elif [[ -n $subs ]]; then\n"
         "    COMPREPLY=($(compgen -W \"$subs\" -- \"$cur\"))\n"
         "  else\n"
         "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
         "  fi\n"
         "}\n"
         "complete -o filenames -F _gpucheck gpucheck\n";
}

std::string zsh_completion(const CliCommand& root) {
  // A zsh description follows a colon: one inside it must be escaped.
  auto entry = [](const std::string& word, const std::string& desc) {
    std::string d;
    for (char c : first_sentence(desc)) d += c == ':' ? std::string("\\:") : std::string(1, c);
    return single_quoted(word + ":" + d);
  };
  std::string paths, values, per_command;
  auto value_case = [](const std::string& pattern, const CliOption& o) {
    std::string action = "_message " + single_quoted(o.value_name);
    if (o.value_kind == ValueKind::choice) action = "compadd -- " + join(o.choices, " ");
    if (o.value_kind == ValueKind::file) action = "_files";
    if (o.value_kind == ValueKind::directory) action = "_directories";
    return "    (" + pattern + ") " + action + "; return ;;\n";
  };
  walk(root, "", [&](const std::string& path, const CliCommand& c) {
    if (!path.empty()) paths += (paths.empty() ? "" : "|") + path;
    std::string opts, subs;
    for (const auto& o : c.options) {
      for (const auto& n : o.names) {
        opts.append(" ").append(entry(n, o.description));
        // The root's take a value after any command: an unquoted * there.
        if (o.takes_value) values += value_case(path.empty() ? "*:" + n : single_quoted(path + ":" + n), o);
      }
    }
    for (const auto& s : c.subcommands) subs.append(" ").append(entry(s.name, s.description));
    per_command += "    (" + single_quoted(path) + ") opts=(" + opts + " ); subs=(" + subs + " ) ;;\n";
  });
  std::string root_opts;
  for (const auto& o : root.options)
    if (!o.root_only)
      for (const auto& n : o.names) root_opts.append(" ").append(entry(n, o.description));
  return "#compdef gpucheck\n"
         "# zsh completion for gpucheck; generated by `gpucheck completion zsh` from its --help definitions.\n"
         "_gpucheck() {\n"
         "  local path_ i\n"
         "  local -a opts subs\n"
         "  for ((i = 2; i < CURRENT; i++)); do\n"
         "    case \"$path_/${words[i]}\" in\n"
         "      (" + paths + ") path_=\"$path_/${words[i]}\" ;;\n"
         "    esac\n"
         "  done\n"
         "  case \"$path_:${words[CURRENT-1]}\" in\n" + values +
         "  esac\n"
         "  case \"$path_\" in\n" + per_command +
         "  esac\n"
         "  [[ -n $path_ ]] && opts+=(" + root_opts + " )\n"
         "  if [[ $PREFIX == -* ]]; then\n"
         "    _describe -t options option opts\n"
         "  elif (( ${#subs} )); then\n"
         "    _describe -t commands command subs\n"
         "  else\n"
         "    _files\n"
         "  fi\n"
         "}\n"
         "_gpucheck \"$@\"\n";
}

std::string fish_completion(const CliCommand& root) {
  std::string out = "# fish completion for gpucheck; generated by `gpucheck completion fish` from its --help definitions.\n"
                    "complete -c gpucheck -f\n";
  auto option_line = [](const std::string& condition, const CliOption& o) {
    std::string line = "complete -c gpucheck";
    if (!condition.empty()) line += " -n " + single_quoted(condition);
    for (const auto& n : o.names) line += (n.rfind("--", 0) == 0 ? " -l " + n.substr(2) : " -s " + n.substr(1));
    if (o.value_kind == ValueKind::choice) line += " -x -a " + single_quoted(join(o.choices, " "));
    else if (o.value_kind == ValueKind::file) line += " -r -F";
    else if (o.value_kind == ValueKind::directory) line += " -x -a '(__fish_complete_directories)'";
    else if (o.takes_value) line += " -x";
    return line + " -d " + single_quoted(first_sentence(o.description)) + "\n";
  };
  walk(root, "", [&](const std::string& path, const CliCommand& c) {
    // Where this command's words apply: after its own name, before a child's.
    std::string children;
    for (const auto& s : c.subcommands) children += " " + s.name;
    std::string here = path.empty() ? "__fish_use_subcommand"
                                    : "__fish_seen_subcommand_from " + c.name +
                                          (children.empty() ? "" : "; and not __fish_seen_subcommand_from" + children);
    for (const auto& s : c.subcommands)
      out += "complete -c gpucheck -n " + single_quoted(here) + " -a " + s.name + " -d " +
             single_quoted(first_sentence(s.description)) + "\n";
    for (const auto& o : c.options) {
      out += option_line(o.root_only ? "__fish_use_subcommand" : path.empty() ? "" : "__fish_seen_subcommand_from " + c.name, o);
    }
    if (!c.arguments.empty() && c.subcommands.empty() && !path.empty())
      out += "complete -c gpucheck -n " + single_quoted("__fish_seen_subcommand_from " + c.name) + " -F\n";
  });
  return out;
}

std::string man_page(const CliCommand& root, const std::string& version, const std::string& date) {
  auto esc = [](const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
      const char c = s[i];
      if (c == '\\') out += "\\e";
      else if (c == '-') out += "\\-";
      else if (c == '\n') out += "\n.br\n";
      else if (c == '/' || c == ',') out += std::string(1, c) + "\\:";  // a place a long URL or list may break
      else out += c;
      // A line that starts with a dot or a quote would be a request.
      if (c == '\n' && i + 1 < s.size() && (s[i + 1] == '.' || s[i + 1] == '\'')) out += "\\&";
    }
    if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out = "\\&" + out;
    return out;
  };
  auto options = [&](const std::vector<CliOption>& opts) {
    std::string out;
    for (const auto& o : opts) {
      out += ".TP\n";
      std::string names;
      for (const auto& n : o.names) names += (names.empty() ? "" : ", ") + ("\\fB" + esc(n) + "\\fR");
      out += names + (o.takes_value ? " \\fI" + esc(o.value_name) + "\\fR" : "") + "\n" + esc(o.description) + "\n";
    }
    return out;
  };
  // Prose paragraphs refilled by man; an indented block (the examples) kept as written.
  auto paragraphs = [&](const std::string& text) {
    std::string out;
    std::size_t at = 0;
    while (at < text.size()) {
      auto end = text.find("\n\n", at);
      if (end == std::string::npos) end = text.size();
      const std::string para = text.substr(at, end - at);
      std::vector<std::string> lines;
      for (std::size_t b = 0, e; b <= para.size(); b = e + 1) {
        e = para.find('\n', b);
        if (e == std::string::npos) e = para.size();
        lines.push_back(para.substr(b, e - b));
      }
      const bool literal = std::any_of(lines.begin(), lines.end(), [](const std::string& l) { return l.rfind("  ", 0) == 0; });
      out += out.empty() ? "" : ".PP\n";
      if (literal) out += ".nf\n";
      for (const auto& l : lines) out += esc(l) + "\n";
      if (literal) out += ".fi\n";
      at = end + 2;
    }
    return out;
  };
  const std::string about = root.description;
  const auto blank = about.find("\n\n");
  // NAME is one line for mandb's whatis database: no break points in it.
  std::string name_line = esc(about.substr(about.find(": ") + 2, about.find('\n') - about.find(": ") - 2));
  for (auto at = name_line.find("\\:"); at != std::string::npos; at = name_line.find("\\:")) name_line.erase(at, 2);
  std::string out = ".TH GPUCHECK 1 \"" + date + "\" \"gpucheck " + version + "\" \"User Commands\"\n"
                    ".SH NAME\ngpucheck \\- " + name_line +
                    "\n.SH SYNOPSIS\n.B gpucheck\n[\\fIOPTIONS\\fR] [\\fICOMMAND\\fR [\\fICOMMAND OPTIONS\\fR]]\n"
                    ".SH DESCRIPTION\n" + paragraphs(blank == std::string::npos ? about : about.substr(blank + 2)) +
                    ".SH OPTIONS\nThese apply to every command.\n" + options(root.options) + ".SH COMMANDS\n";
  walk(root, "", [&](const std::string& path, const CliCommand& c) {
    if (path.empty()) return;
    std::string words = path;
    for (auto& ch : words)
      if (ch == '/') ch = ' ';
    std::string args;
    for (const auto& a : c.arguments) {
      const std::string name = to_upper(a.name);
      args += a.required ? " \\fI" + esc(name) + "\\fR" : " [\\fI" + esc(name) + "\\fR]";
    }
    out += ".SS \"gpucheck" + words + "\"\n.B gpucheck" + words + "\n[\\fIOPTIONS\\fR]" + args + "\n.PP\n" + esc(c.description) +
           "\n" + options(c.options);
  });
  out += ".SH EXAMPLES\n";
  for (const auto& e : cli_examples()) out += ".TP\n.B " + esc(e.command) + "\n" + esc(e.what) + "\n";
  out += ".SH EXIT STATUS\n.TP\n0\nThe command ran and found nothing that fails.\n"
         ".TP\n1\nA verdict that fails: check found an error, verify a drift, kernels a failed check, matrix validate "
         "or verify a problem, matrix update refused a download.\n"
         ".TP\n2\ngpucheck itself could not run: bad arguments, unreadable input, nothing fetched.\n"
         ".TP\n3\ncheck \\-\\-from: the paste does not show what a verdict needs.\n"
         ".SH FILES\n.TP\n/etc/gpucheck/matrix.d/\nA node's matrix layers, laid over the matrix in use.\n"
         ".TP\n/etc/gpucheck/keys/\nPublic keys trusted for matrix bundles.\n"
         ".TP\n/var/cache/gpucheck/, ~/.cache/gpucheck/\nMatrices installed by \\fBgpucheck matrix update\\fR.\n"
         ".SH ENVIRONMENT\n.TP\nNO_COLOR\nNo colour in the text report.\n"
         ".TP\nGPUCHECK_CACHE_DIR, GPUCHECK_KEYS_DIR, GPUCHECK_MATRIX_DIR\nOther directories for the matrix cache, the "
         "trusted keys and the matrix layers.\n"
         ".TP\nGPUCHECK_TODAY\nThe day, YYYY-MM-DD, on which the matrix's age is judged.\n"
         ".SH SEE ALSO\n\\fBnvidia-smi\\fR(1)\n";
  return out;
}

}  // namespace gpucheck
