// Which NVIDIA daemons run, told from their pid files and systemd's cgroups:
// a stale pid file is not a running daemon, and the probe never walks /proc
// (a prolog's cost must not grow with the node's process count).
#include <catch2/catch.hpp>

#include "host/hosts.hpp"
#include "probe.hpp"
#include "test_support.hpp"

using namespace gpucheck;
using gpucheck::test::TempDir;
using gpucheck::test::write_file;

namespace {

const ServiceFacts& service(const Facts& f, const std::string& name) {
  for (auto& s : f.services)
    if (s.name == name) return s;
  FAIL("no service " << name);
  throw;
}

Facts probe(const TempDir& t) {
  auto host = open_host(t.str());
  REQUIRE(host);
  ProbeContext ctx(**host, ProbeOptions{});
  probe_services(ctx);
  return ctx.facts();
}

}  // namespace

TEST_CASE("a daemon runs when its pid file names it", "[probe][services]") {
  TempDir t;
  write_file(t.path() / "run/nvidia-fabricmanager/nv-fabricmanager.pid", "4242\n");
  write_file(t.path() / "proc/4242/comm", "nv-fabricmanage\n");
  write_file(t.path() / "var/run/nvidia-persistenced/nvidia-persistenced.pid", "77");
  write_file(t.path() / "proc/77/comm", "nvidia-persiste\n");
  const auto f = probe(t);
  CHECK(service(f, "nvidia-fabricmanager").running);
  CHECK(service(f, "nvidia-fabricmanager").installed);
  CHECK(service(f, "nvidia-fabricmanager").source == "/run/nvidia-fabricmanager/nv-fabricmanager.pid");
  CHECK(service(f, "nvidia-persistenced").running);
}

TEST_CASE("a stale pid file is not a running daemon", "[probe][services]") {
  TempDir t;
  // The daemon crashed; its pid now belongs to a shell, or to nothing.
  write_file(t.path() / "run/nvidia-fabricmanager/nv-fabricmanager.pid", "4242\n");
  write_file(t.path() / "proc/4242/comm", "bash\n");
  write_file(t.path() / "run/nvidia-persistenced/nvidia-persistenced.pid", "not a pid\n");
  const auto f = probe(t);
  CHECK_FALSE(service(f, "nvidia-fabricmanager").running);
  CHECK_FALSE(service(f, "nvidia-fabricmanager").installed);
  CHECK_FALSE(service(f, "nvidia-persistenced").running);
}

TEST_CASE("a unit systemd runs is found in its cgroup", "[probe][services]") {
  TempDir t;
  write_file(t.path() / "sys/fs/cgroup/system.slice/nvidia-persistenced.service/cgroup.procs", "912\n");
  write_file(t.path() / "sys/fs/cgroup/systemd/system.slice/nvidia-fabricmanager.service/cgroup.procs", "1301\n");
  const auto f = probe(t);
  CHECK(service(f, "nvidia-persistenced").running);
  CHECK(service(f, "nvidia-fabricmanager").running);
}

TEST_CASE("a stopped unit's empty cgroup is not a running daemon", "[probe][services]") {
  TempDir t;
  write_file(t.path() / "sys/fs/cgroup/system.slice/nvidia-persistenced.service/cgroup.procs", "");
  write_file(t.path() / "usr/bin/nvidia-persistenced", "");
  const auto f = probe(t);
  CHECK_FALSE(service(f, "nvidia-persistenced").running);
  CHECK(service(f, "nvidia-persistenced").installed);
}

TEST_CASE("the probe does not walk /proc", "[probe][services]") {
  TempDir t;
  // Processes named like the daemons but with neither pid file nor cgroup:
  // the old probe read every /proc/PID/comm and found them.
  for (int pid = 100; pid < 400; ++pid) write_file(t.path() / "proc" / std::to_string(pid) / "comm", "nv-fabricmanage\n");
  const auto f = probe(t);
  CHECK_FALSE(service(f, "nvidia-fabricmanager").running);
}
