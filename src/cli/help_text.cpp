#include "cli/help_text.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>

#include "host/own_env.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

// -h: where an option's summary starts; nearer on a narrow terminal, so
// that the summaries keep two thirds of the width.
std::size_t names_column(std::size_t width) { return std::min<std::size_t>(26, width / 3); }

const CliCommand* find_command(const CliCommand& root, const std::vector<std::string>& path) {
  const CliCommand* at = &root;
  for (const auto& name : path) {
    const auto it = std::find_if(at->subcommands.begin(), at->subcommands.end(), [&](const CliCommand& c) { return c.name == name; });
    if (it == at->subcommands.end()) return nullptr;
    at = &*it;
  }
  return at;
}

std::string option_names(const CliOption& o) {
  std::string out;
  for (const auto& n : o.names) out += (out.empty() ? "" : ", ") + n;
  if (o.takes_value) out += " " + o.value_name;
  return out;
}


// A summary: the description's first sentence (up to a full stop and a
// space, "e.g. 8.0" going on), or its first clause when the sentence would
// fill more than two lines; the choices, when it has them.
std::string summary(const std::string& description, const std::vector<std::string>& choices = {}) {
  std::size_t end = description.size();
  for (std::size_t i = description.find(". "); i != std::string::npos; i = description.find(". ", i + 1))
    if (i < 3 || (description.compare(i - 3, 3, "e.g") != 0 && description.compare(i - 3, 3, "i.e") != 0)) {
      end = i;
      break;
    }
  std::string s = description.substr(0, end);
  if (!s.empty() && s.back() == '.') s.pop_back();
  if (s.size() > 2 * 54 || !choices.empty()) s = s.substr(0, std::min(s.find(": "), s.find("; ")));
  if (!choices.empty()) s += ": " + join(choices, ", ");
  return s.empty() ? s : s + ".";
}

// Name and text: on one line when the name leaves room, else the text on
// the next, indented; -h's summaries, --help's whole descriptions.
std::string entry(const std::string& name, const std::string& text, bool full, std::size_t width) {
  if (full) return "  " + name + "\n" + wrap_words(text, width, 6, 6) + "\n";
  const std::string head = "  " + name;
  const std::size_t column = names_column(width);
  const std::string wrapped = wrap_words(text, width, column, column);
  if (head.size() + 2 > column) return head + "\n" + wrapped + "\n";
  return head + wrapped.substr(head.size()) + "\n";
}

std::string options_section(const std::string& title, const std::vector<CliOption>& options, bool root, bool full, std::size_t width) {
  std::string body;
  for (const auto& o : options)
    if (root || (!o.root_only && !o.help)) body += entry(option_names(o), full ? o.description : summary(o.description, o.choices), full, width);
  return body.empty() ? "" : "\n" + title + ":\n" + body;
}

}  // namespace

const std::vector<CliExample>& cli_examples() {
  static const std::vector<CliExample> examples{
      {"gpucheck", "the same as `gpucheck check`"},
      {"gpucheck check --json", "findings and the stack, for launchers (exit 1 on an error); also `gpucheck --json`"},
      {"gpucheck check --gpus 8 --require bf16 --min-memory 80G",
       "a pre-flight gate for an 8-GPU bf16 job (80G: sold as 80 GB, as an H100 80GB is; 80GiB: binary)"},
      {"gpucheck check --kernels", "also prove each precision on the GPUs (= --level 3)"},
      {"gpucheck --level 1 check", "the cheapest prolog: files only, no program, no driver call"},
      {"gpucheck check --from issue.txt", "judge a paste: collect_env, nvidia-smi, an error, prose"},
      {"gpucheck explain \"no kernel image is available for execution on the device\"", "what an error means, here"},
      {"gpucheck recommend", "the NGC containers this driver and these GPUs run"},
      {"gpucheck fit --model llama-2-70b --gpu a100-sxm4-80gb", "will it fit: memory a GPU, the layout, what bounds it"},
      {"gpucheck lock && gpucheck verify", "pin this node's stack, check another node against it"},
      {"gpucheck snapshot -o node17", "record what the probes read, for a bug report"},
      {"gpucheck --root node17 check", "judge that snapshot as if on that machine"},
  };
  return examples;
}

std::string exit_codes_text() {
  return "Exit codes: 0 pass; 1 findings that fail (check, verify, kernels), a model that does not fit (fit); 2 gpucheck could not run (bad arguments, "
         "unreadable input); 3 a --from paste that does not show what a verdict needs (check).";
}

std::string docs_text() {
  return "Docs: /usr/share/doc/gpucheck/docs/ once the package is installed, docs/ in the source tree: check-output.md, "
         "exit-codes.md, rules.md, output-formats.md.";
}

std::string wrap_words(const std::string& text, std::size_t width, std::size_t indent, std::size_t first_indent) {
  std::string out;
  bool first_line = true;
  for (auto line : split(text, '\n')) {
    std::size_t column = first_line ? first_indent : indent;
    std::string row(column, ' ');
    bool empty_row = true;
    for (auto word : split(line, ' ')) {
      if (word.empty()) continue;
      if (!empty_row && column + 1 + word.size() > width) {
        out += row + "\n";
        row.assign(indent, ' ');
        column = indent;
        empty_row = true;
      }
      if (!empty_row) row += ' ', ++column;
      row += word;
      column += word.size();
      empty_row = false;
    }
    out += row + "\n";
    first_line = false;
  }
  if (!out.empty()) out.pop_back();
  return out;
}

std::string render_help(const CliCommand& root, const std::vector<std::string>& path, bool full, std::size_t width) {
  const CliCommand* c = find_command(root, path);
  if (!c) return "";
  const bool is_root = path.empty();
  std::string usage = "Usage: gpucheck";
  if (is_root) {
    usage += " [OPTIONS] [COMMAND]";
  } else {
    usage += " [GLOBAL OPTIONS]";
    for (const auto& p : path) usage += " " + p;
    usage += " [OPTIONS]";
    if (!c->subcommands.empty()) usage += " COMMAND";
    for (const auto& a : c->arguments) usage += a.required ? " " + to_upper(a.name) : " [" + to_upper(a.name) + "]";
  }
  std::string out = wrap_words(usage, width, 7, 0) + "\n\n";
  // The root's description: its summary line, then what it does.
  std::string about = c->description;
  if (is_root && about.find(": ") != std::string::npos) {
    about = about.substr(about.find(": ") + 2);
    about[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(about[0])));
    about.insert(about.find('\n'), ".");
  }
  out += wrap_words(full ? about : is_root ? about.substr(0, about.find("\n\n")) : summary(about), width, 0, 0) + "\n";
  if (!c->subcommands.empty()) {
    out += "\nCommands:\n";
    // One line a command: the summary's first clause when the sentence is longer.
    for (const auto& s : c->subcommands) {
      std::string line = summary(s.description);
      const auto clause = std::min({line.find(": "), line.find("; "), line.find(" (")});
      if (names_column(width) + line.size() > width && clause != std::string::npos) line = line.substr(0, clause) + ".";
      out += entry(s.name, line, false, width);
    }
  }
  if (!c->arguments.empty()) {
    out += "\nArguments:\n";
    for (const auto& a : c->arguments) out += entry(to_upper(a.name), full ? a.description : summary(a.description), full, width);
  }
  out += options_section("Options", c->options, is_root, full, width);
  if (!is_root) out += options_section("Global options (before or after the command)", root.options, false, full, width);
  if (is_root) {
    out += "\nExamples:\n";
    for (const auto& e : cli_examples()) {
      if (!full && (&e - cli_examples().data()) >= 6) break;
      out += wrap_words(e.command, width, 6, 2) + "\n" + wrap_words(e.what, width, 6, 6) + "\n";
    }
    out += "\n" + wrap_words(exit_codes_text(), width, 0, 0) + "\n";
    if (full) out += wrap_words(docs_text(), width, 0, 0) + "\n";
  }
  const std::string at = is_root ? "gpucheck" : "gpucheck " + join(path, " ");
  out += "\n" + wrap_words(full ? "`" + at + " -h` prints a summary."
                                : "`" + at + " --help` explains every option in full" +
                                      (c->subcommands.empty() ? "." : "; `gpucheck help COMMAND` a command's."),
                           width, 0, 0) +
         "\n";
  return out;
}

std::size_t help_width() {
  std::size_t width = 80;
  if (const auto columns = own_env("COLUMNS"); columns && !columns->empty()) {
    if (const auto v = parse_int_in(*columns, 1, 10000)) width = static_cast<std::size_t>(*v);
  } else if (::isatty(STDOUT_FILENO) == 1) {
    winsize w{};
    if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 0) width = w.ws_col;
  }
  return std::clamp<std::size_t>(width, 40, 100);
}

}  // namespace gpucheck
