// The completions and the man page, generated from the CLI definitions:
// each is run by the program that reads it (bash, zsh, fish, groff).
#include <catch2/catch.hpp>

#include <filesystem>

#include "gpucheck_run.hpp"
#include "test_support.hpp"

using gpucheck::test::run_gpucheck;

namespace {

gpucheck::CommandResult sh(const std::string& program, const std::vector<std::string>& args) {
  auto r = gpucheck::run_process(program, args, std::chrono::milliseconds(30000));
  REQUIRE(r);
  return *r;
}

std::vector<std::string> lines_of_output(const std::string& text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  for (auto nl = text.find('\n'); nl != std::string::npos; at = nl + 1, nl = text.find('\n', at)) out.push_back(text.substr(at, nl - at));
  return out;
}

// What bash completes for the words typed so far (the last one being completed).
std::string bash_completes(const std::string& script, const std::string& words) {
  return sh("/bin/bash", {"-c", "source " + script + "; COMP_WORDS=(" + words +
                                    "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _gpucheck; echo \"${COMPREPLY[*]}\""})
      .out;
}

}  // namespace

TEST_CASE("bash completion offers each level's commands, options and choices", "[cli][completion]") {
  gpucheck::test::TempDir tmp;
  const std::string script = tmp.str() + "/gpucheck.bash";
  auto r = run_gpucheck({"completion", "bash"});
  REQUIRE(r.exit_code == 0);
  gpucheck::test::write_file(script, r.out);
  CHECK(bash_completes(script, "gpucheck ma") == "matrix\n");
  CHECK(bash_completes(script, "gpucheck matrix u") == "update\n");
  CHECK(bash_completes(script, "gpucheck --timeout 5 matrix update --tr") == "--trust-key\n");
  CHECK(bash_completes(script, "gpucheck --color a") == "auto always\n");
  CHECK(bash_completes(script, "gpucheck check --format p") == "prometheus\n");
  // A global option after a subcommand, as CLI11 takes it.
  CHECK(bash_completes(script, "gpucheck check --lev") == "--level\n");
  // Values: a number or a duration offers nothing, --level its three, --root directories only.
  CHECK(bash_completes(script, "gpucheck check --gpus ''") == "\n");
  CHECK(bash_completes(script, "gpucheck --timeout ''") == "\n");
  CHECK(bash_completes(script, "gpucheck --level ''") == "1 2 3\n");
  CHECK(bash_completes(script, "gpucheck kernels --precision b") == "bf16 bandwidth\n");
  gpucheck::test::write_file(tmp.path() / "adir/x", "");
  gpucheck::test::write_file(tmp.path() / "afile", "");
  CHECK(bash_completes(script, "gpucheck --root " + tmp.str() + "/a") == tmp.str() + "/adir\n");
  CHECK(bash_completes(script, "gpucheck check --from " + tmp.str() + "/af") == tmp.str() + "/afile\n");
  // --version and --json are for the bare command only.
  CHECK(bash_completes(script, "gpucheck --v") == "--version\n");
  CHECK(bash_completes(script, "gpucheck lock --v") == "\n");
}

// `gpucheck completion SHELL`, written to `name` in `tmp`; its path.
static std::string completion_file(const gpucheck::test::TempDir& tmp, const std::string& shell, const std::string& name) {
  auto r = run_gpucheck({"completion", shell});
  REQUIRE(r.exit_code == 0);
  gpucheck::test::write_file(tmp.path() / name, r.out);
  return tmp.str() + "/" + name;
}

// What zsh's function offers for the words typed so far: zsh's completion
// helpers (_describe, _files, _directories, compadd, _message) are stood in
// for by functions that print what they were given, so the generated
// function itself runs, as it would at a prompt, outside the line editor.
static std::string zsh_completes(const std::string& script, const std::string& words) {
  return sh("/usr/bin/zsh", {"-fc",
                             "_describe() { local -a a; a=(\"${(@P)4}\"); print -r -- \"describe $3: ${(j: :)${(@)a%%:*}}\"; }; "
                             "_files() { print -r -- files; }; _directories() { print -r -- directories; }; "
                             "compadd() { shift; print -r -- \"compadd $*\"; }; _message() { print -r -- \"message $1\"; }; "
                             "words=(" + words + "); CURRENT=${#words}; PREFIX=${words[CURRENT]}; "
                             "source " + script})
      .out;
}

TEST_CASE("zsh's completion function offers commands, options and values", "[cli][completion]") {
  gpucheck::test::TempDir tmp;
  const std::string script = completion_file(tmp, "zsh", "_gpucheck");
  CHECK_THAT(zsh_completes(script, "gpucheck ''"), Catch::StartsWith("describe command: check recommend explain fit matrix"));
  CHECK_THAT(zsh_completes(script, "gpucheck matrix ''"), Catch::StartsWith("describe command: validate show update"));
  // A global option's value after the root or a command: the case pattern matches.
  CHECK(zsh_completes(script, "gpucheck --root ''") == "directories\n");
  CHECK(zsh_completes(script, "gpucheck check --root ''") == "directories\n");
  CHECK(zsh_completes(script, "gpucheck --color ''") == "compadd auto always never\n");
  CHECK(zsh_completes(script, "gpucheck check --format ''") == "compadd text json junit prometheus nfd markdown oneline\n");
  CHECK(zsh_completes(script, "gpucheck kernels --precision ''").rfind("compadd fp64 fp32", 0) == 0);
  CHECK(zsh_completes(script, "gpucheck check --gpus ''") == "message N\n");
  CHECK(zsh_completes(script, "gpucheck --from ''") == "files\n");
  const auto options = zsh_completes(script, "gpucheck check --");
  CHECK_THAT(options, Catch::StartsWith("describe option: ") && Catch::Contains(" --gpus ") && Catch::Contains(" --root ") &&
                          !Catch::Contains("--version"));
}

TEST_CASE("fish completes commands, options and values", "[cli][completion]") {
  gpucheck::test::TempDir tmp;
  const std::string script = completion_file(tmp, "fish", "gpucheck.fish");
  gpucheck::test::write_file(tmp.path() / "adir/x", "");
  gpucheck::test::write_file(tmp.path() / "afile", "");
  const auto completes = [&](const std::string& line) {
    std::string words;
    for (auto& l : lines_of_output(sh("/usr/bin/fish", {"-c", "source " + script + "; complete -C '" + line + "'"}).out))
      words += (words.empty() ? "" : " ") + l.substr(0, l.find('\t'));
    return words;
  };
  CHECK(completes("gpucheck --color ") == "always auto never");  // fish sorts them
  CHECK(completes("gpucheck check --format j") == "json junit");
  CHECK(completes("gpucheck check --gpus ") == "");
  CHECK(completes("gpucheck --level ") == "1 2 3");
  CHECK(completes("gpucheck --root " + tmp.str() + "/a") == tmp.str() + "/adir/");
  CHECK_THAT(completes("gpucheck check --from " + tmp.str() + "/a"), Catch::Contains(tmp.str() + "/afile"));
  CHECK_THAT(completes("gpucheck matrix "), Catch::Contains("update") && Catch::Contains("validate"));
}

TEST_CASE("zsh and fish completions parse, and fish completes subcommands", "[cli][completion]") {
  gpucheck::test::TempDir tmp;
  auto zsh = run_gpucheck({"completion", "zsh"});
  auto fish = run_gpucheck({"completion", "fish"});
  REQUIRE(zsh.exit_code == 0);
  REQUIRE(fish.exit_code == 0);
  CHECK(zsh.out.rfind("#compdef gpucheck\n", 0) == 0);
  gpucheck::test::write_file(tmp.path() / "_gpucheck", zsh.out);
  gpucheck::test::write_file(tmp.path() / "gpucheck.fish", fish.out);
  CHECK(sh("/usr/bin/zsh", {"-n", tmp.str() + "/_gpucheck"}).exit_code == 0);
  CHECK(sh("/usr/bin/fish", {"-n", tmp.str() + "/gpucheck.fish"}).exit_code == 0);
  auto menu = sh("/usr/bin/fish", {"-c", "source " + tmp.str() + "/gpucheck.fish; complete -C 'gpucheck matrix u'"});
  CHECK(menu.out.rfind("update\t", 0) == 0);
  CHECK(run_gpucheck({"completion", "tcsh"}).exit_code == 2);
}

TEST_CASE("the man page is clean troff and documents every command", "[cli][completion]") {
  gpucheck::test::TempDir tmp;
  auto man = run_gpucheck({"manpage"});
  REQUIRE(man.exit_code == 0);
  gpucheck::test::write_file(tmp.path() / "gpucheck.1", man.out);
  auto groff = sh("/usr/bin/groff", {"-man", "-Tutf8", "-ww", "-z", tmp.str() + "/gpucheck.1"});
  CHECK(groff.err.empty());
  CHECK(groff.exit_code == 0);
  for (const char* command : {"check", "matrix update", "matrix sign", "verify", "kernels", "completion"})
    CHECK(man.out.find(".SS \"gpucheck " + std::string(command) + "\"") != std::string::npos);
  // The hidden command that writes it is not in it.
  CHECK(man.out.find("gpucheck manpage") == std::string::npos);
  // Dated (the commit's day), and a NAME line that says what it is: what apropos shows.
  const auto th = man.out.substr(0, man.out.find('\n'));
  CHECK_THAT(th, Catch::Matches(R"(\.TH GPUCHECK 1 "[0-9]{4}-[0-9]{2}-[0-9]{2}" "gpucheck [0-9.]+" "User Commands")"));
  CHECK_THAT(man.out, Catch::Contains(".SH NAME\ngpucheck \\- pre\\-flight check of a GPU machine's driver, CUDA and framework stack\n"));
  CHECK_THAT(man.out, Catch::Contains(".SH EXAMPLES\n"));
}
