// What the probes make of broken machines: garbage in /proc, empty version
// files, unreadable directories, a command that hangs. Always a note with
// the reason; never a crash, never a hang.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <regex>

#include "host/hosts.hpp"
#include "probe.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using gpucheck::test::TempDir;
using gpucheck::test::write_file;
namespace fs = std::filesystem;

namespace {

const Note* find_note(const Facts& f, const std::string& subject, Reason reason) {
  for (auto& n : f.notes)
    if (n.subject == subject && n.problem.reason == reason) return &n;
  return nullptr;
}

Facts probe_dir(const TempDir& t, ProbeOptions o = {}) {
  auto host = open_host(t.str());
  REQUIRE(host);
  return run_probes(**host, o);
}

}  // namespace

TEST_CASE("binary garbage in /proc/driver/nvidia/version", "[probe][bad-input]") {
  TempDir t;
  std::string junk;
  for (int i = 0; i < 512; ++i) junk += static_cast<char>((i * 37) & 0xff);
  write_file(t.path() / "proc/driver/nvidia/version", junk);
  auto f = probe_dir(t);
  auto n = find_note(f, "nvidia_kernel", Reason::malformed);
  REQUIRE(n);
  CHECK_THAT(n->problem.detail, Catch::Contains("binary"));
  CHECK(f.nvidia_driver.kernel_module_loaded);  // the file exists: the module is there
  CHECK_FALSE(f.nvidia_driver.kernel_module.version);
}

TEST_CASE("an empty version file", "[probe][bad-input]") {
  TempDir t;
  write_file(t.path() / "proc/driver/nvidia/version", "");
  auto f = probe_dir(t);
  auto n = find_note(f, "nvidia_kernel", Reason::malformed);
  REQUIRE(n);
  CHECK_THAT(n->problem.detail, Catch::Contains("NVRM version"));
}

TEST_CASE("garbage in sysfs PCI attributes and nvidia-smi output", "[probe][bad-input]") {
  TempDir t;
  const auto dev = t.path() / "sys/bus/pci/devices/0000:18:00.0";
  write_file(dev / "vendor", "0x10de\n");
  write_file(dev / "class", std::string("\x01\x02\xff", 3));
  const auto dev2 = t.path() / "sys/bus/pci/devices/0000:19:00.0";
  write_file(dev2 / "vendor", "banana\n");
  write_file(t.path() / ".gpucheck/manifest.json",
             R"({"format": "gpucheck-snapshot/1",
                 "commands": {"nvidia-smi -q -x": {"exit_code": 0, "stdout": "<?xml version=\"1.0\"?><nvidia_smi_log><gpu id=\"00000000:18:00.0\">"}}})");
  auto f = probe_dir(t);
  CHECK(f.pci.empty());
  CHECK(find_note(f, "pci", Reason::malformed));
  auto smi = find_note(f, "nvidia_smi", Reason::malformed);
  REQUIRE(smi);
  CHECK_THAT(smi->problem.detail, Catch::Contains("at byte"));
  CHECK_FALSE(f.nvidia_smi);
}

TEST_CASE("an unreadable directory, as an unprivileged user", "[probe][bad-input]") {
  TempDir t;
  write_file(t.path() / "proc/driver/nvidia/version",
             "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023\n");
  write_file(t.path() / "proc/driver/nvidia/gpus/0000:18:00.0/information", "Model: \t H100\n");
  ::chmod(t.path().c_str(), 0755);
  ::chmod((t.path() / "proc/driver/nvidia/gpus").c_str(), 0);
  // Root reads through permissions, so the probe runs in a child that has
  // dropped to nobody; it reports what it saw through its exit code.
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(10);
    auto host = open_host(t.str());
    if (!host) ::_exit(11);
    auto f = run_probes(**host, {});
    if (f.nvidia_driver.kernel_module.version != "535.104.05") ::_exit(12);
    if (!f.nvidia_driver.gpus.empty()) ::_exit(13);
    for (auto& n : f.notes)
      if (n.subject == "nvidia_kernel" && n.problem.reason == Reason::permission_denied) ::_exit(0);
    ::_exit(14);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("an unreadable file recorded in a snapshot replays with its reason", "[probe][bad-input]") {
  TempDir t;
  write_file(t.path() / ".gpucheck/manifest.json",
             R"({"format": "gpucheck-snapshot/1",
                 "unreadable": {"/dev/kmsg": {"reason": "permission_denied", "where": "/dev/kmsg", "detail": "Operation not permitted"}}})");
  write_file(t.path() / "dev/kmsg", "");
  auto f = probe_dir(t);
  auto n = find_note(f, "kernel_log", Reason::permission_denied);
  REQUIRE(n);
  CHECK_THAT(n->problem.detail, Catch::Contains("dmesg_restrict"));
  CHECK_FALSE(f.kernel_log.read);
}

TEST_CASE("an nvidia-smi that hangs is killed at its deadline and the run goes on", "[probe][bad-input]") {
  TempDir t;
  write_file(t.path() / "nvidia-smi", "#!/bin/sh\nsleep 100\n");
  ::chmod((t.path() / "nvidia-smi").c_str(), 0755);
  const char* old = std::getenv("PATH");
  const std::string saved = old ? old : "";
  ::setenv("PATH", (t.str() + ":/usr/bin:/bin").c_str(), 1);
  LiveHost host;
  ProbeOptions o;
  o.command_timeout = Millis(300);
  const auto start = std::chrono::steady_clock::now();
  ProbeContext ctx(host, o);
  start_nvidia_smi(ctx);
  probe_services(ctx);  // the run goes on while nvidia-smi hangs
  probe_nvidia_smi(ctx);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  ::setenv("PATH", saved.c_str(), 1);
  auto n = find_note(ctx.facts(), "nvidia_smi", Reason::timed_out);
  REQUIRE(n);
  // The time it ran, measured: at least its 300 ms limit.
  std::smatch ms;
  const std::string detail = n->problem.detail;
  REQUIRE(std::regex_search(detail, ms, std::regex("killed after ([0-9]+) ms")));
  CHECK(std::stoi(ms[1].str()) >= 300);
  CHECK(ctx.facts().services.size() == 2);
  CHECK(elapsed < std::chrono::seconds(5));  // a bound on the deadline, not a benchmark
}

TEST_CASE("nvidia-smi failing with the driver's message", "[probe][bad-input]") {
  TempDir t;
  write_file(t.path() / ".gpucheck/manifest.json",
             R"({"format": "gpucheck-snapshot/1",
                 "commands": {"nvidia-smi -q -x": {"resolved": "/usr/bin/nvidia-smi", "exit_code": 9,
                   "stdout": "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n\n"}}})");
  auto f = probe_dir(t);
  auto n = find_note(f, "nvidia_smi", Reason::failed);
  REQUIRE(n);
  CHECK_THAT(n->problem.detail, Catch::StartsWith("exit code 9: NVIDIA-SMI has failed"));
}

TEST_CASE("with the run's --timeout spent, no program starts and the files are still read", "[probe]") {
  TempDir t;
  write_file(t.path() / "etc/os-release", "ID=debian\nVERSION_ID=\"12\"\n");
  ProbeOptions o;
  o.timeout = Millis(0);
  auto f = probe_dir(t, o);
  CHECK(f.system.os.id == "debian");
  CHECK_FALSE(find_note(f, "system", Reason::timed_out));

  LiveHost host;
  auto r = host.run(Command{"sh", {"-c", "true"}, Millis(0)});
  REQUIRE_FALSE(r);
  CHECK(r.problem().reason == Reason::timed_out);
  CHECK_THAT(r.problem().detail, Catch::Contains("not started"));
  auto call = host.isolated_call({"test-echo", {"answer"}}, Millis(0));
  REQUIRE_FALSE(call);
  CHECK(call.problem().reason == Reason::timed_out);
}

TEST_CASE("a libcuda.so.1 that is a CUDA toolkit's stub is flagged", "[probe]") {
  // Seen when a toolkit's stubs/ directory lands on LD_LIBRARY_PATH or in ld.so.conf.
  TempDir t;
  write_file(t.path() / "usr/local/cuda-12.4/lib64/stubs/libcuda.so", "");
  fs::create_symlink("libcuda.so", t.path() / "usr/local/cuda-12.4/lib64/stubs/libcuda.so.1");
  write_file(t.path() / "usr/lib/x86_64-linux-gnu/libcuda.so.550.90.07", "");
  fs::create_symlink("libcuda.so.550.90.07", t.path() / "usr/lib/x86_64-linux-gnu/libcuda.so.1");
  write_file(t.path() / ".gpucheck/manifest.json",
             R"({"format": "gpucheck-snapshot/1", "uname": {"machine": "x86_64"},
                 "env": {"LD_LIBRARY_PATH": "/usr/local/cuda-12.4/lib64/stubs"}})");
  auto f = probe_dir(t);
  const auto& lib = f.nvidia_driver.libcuda;
  CHECK(lib.path == "/usr/local/cuda-12.4/lib64/stubs/libcuda.so.1");
  CHECK(lib.via == "LD_LIBRARY_PATH");
  CHECK(lib.stub);
  CHECK_FALSE(lib.version);
  REQUIRE(lib.shadowed.size() == 1);
  CHECK(lib.shadowed[0] == "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
}

TEST_CASE("/proc/uptime: seconds since boot, garbage as a note, an empty placeholder as nothing", "[probe][bad-input]") {
  TempDir good;
  write_file(good.path() / "proc/uptime", "5745600.25 91000000.00\n");
  CHECK(probe_dir(good).system.uptime_seconds == 5745600.25);
  TempDir junk;
  write_file(junk.path() / "proc/uptime", "up 3 days\n");
  const auto f = probe_dir(junk);
  CHECK_FALSE(f.system.uptime_seconds);
  const Note* n = find_note(f, "system", Reason::malformed);
  REQUIRE(n);
  CHECK_THAT(n->problem.detail, Catch::Contains("\"up 3 days\""));
  TempDir negative;
  write_file(negative.path() / "proc/uptime", "-5 1\n");
  CHECK(find_note(probe_dir(negative), "system", Reason::malformed));
  TempDir placeholder;
  write_file(placeholder.path() / "proc/uptime", "");
  const auto p = probe_dir(placeholder);
  CHECK_FALSE(p.system.uptime_seconds);
  CHECK_FALSE(find_note(p, "system", Reason::malformed));
}
