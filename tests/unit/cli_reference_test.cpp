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
}
