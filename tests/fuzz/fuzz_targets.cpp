#include "fuzz_targets.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "host/elf.hpp"
#include "host/ld_cache.hpp"
#include "host/hosts.hpp"
#include "host/manifest.hpp"
#include "fleet/fleet_summary.hpp"
#include "importers/import_report.hpp"
#include "lock/lockfile.hpp"
#include "matrix/matrix_load.hpp"
#include "matrix/platform_knowledge.hpp"
#include "parse/conda_build.hpp"
#include "parse/conda_meta.hpp"
#include "parse/c_header.hpp"
#include "parse/cuda_files.hpp"
#include "parse/deep_probe_answer.hpp"
#include "parse/dpkg_status.hpp"
#include "parse/framework_build.hpp"
#include "parse/kernel_log.hpp"
#include "parse/library_name.hpp"
#include "parse/local_tag.hpp"
#include "parse/nvidia_proc.hpp"
#include "parse/nvsmi.hpp"
#include "parse/nvsmi_table.hpp"
#include "parse/os_release.hpp"
#include "parse/pci.hpp"
#include "parse/python_assignments.hpp"
#include "parse/python_core_metadata.hpp"
#include "parse/python_marker.hpp"
#include "parse/python_requirement.hpp"
#include "parse/python_version.hpp"
#include "parse/pyvenv_cfg.hpp"
#include "parse/rocm_files.hpp"
#include "parse/sys_path_answer.hpp"
#include "probe.hpp"
#include "report/fleet_report.hpp"
#include "report/reports.hpp"
#include "report/terminal.hpp"
#include "update/bundle.hpp"
#include "update/matrix_cache.hpp"
#include "update/signing.hpp"
#include "util/version.hpp"

namespace gpucheck::fuzz {
namespace {

// The oracle beyond "no crash": a JSON document a command writes parses,
// as a file (--output) and as standard output after the terminal filter
// (where a DEL once became the invalid escape \x7f). A violation throws,
// which libFuzzer reports as a crash and the replay test as a failure.
void must_parse(const std::string& json_text, const char* what) {
  if (!nlohmann::json::accept(json_text)) throw std::runtime_error(std::string("oracle: ") + what + " is not valid JSON");
  std::string shown;
  terminal_safe(json_text, false, true, shown);
  if (!nlohmann::json::accept(shown)) throw std::runtime_error(std::string("oracle: ") + what + " on standard output is not valid JSON");
}

// What a command prints after reading: both writers, so a fact that the
// reader let through and a writer cannot take is found too.
void render(const Facts& f) {
  const ReportOptions o{false, "fuzz"};
  must_parse(render_facts_json(f, o), "the facts JSON");
  (void)render_facts_text(f, o);
}

void report(std::string_view in) {
  if (auto r = import_report(in, "fuzz")) render(r->facts);
}

void manifest(std::string_view in) { (void)parse_manifest(std::string(in), "/nonexistent-fuzz-dir"); }

// What `--root SNAPSHOT` replays: a manifest's command records and driver
// answers (`calls`, whose numbers the dictionary's edge values reach)
// through every probe, over the files of a real fixture.
void probes(std::string_view in) {
  static const std::string root = std::string(GPUCHECK_SOURCE_DIR) + "/tests/fixtures/hosts/h100-sxm-8gpu";
  auto m = parse_manifest(std::string(in), root + "/.gpucheck");
  if (!m) return;
  const SnapshotHost host(root, std::move(m).value());
  render(run_probes(host, ProbeOptions{}));
}

void lockfile(std::string_view in) { (void)parse_lock(in, "fuzz.lock"); }

void matrix(std::string_view in) { (void)parse_matrix({MatrixDocument{"fuzz.json", std::string(in)}}); }

void elf(std::string_view in) { (void)parse_elf_dynamic(in, "fuzz"); }

void ld_cache(std::string_view in) { (void)parse_ld_cache(in); }

// What `matrix update` and every start read of a download or a cache: the
// first byte picks the reader.
void update(std::string_view in) {
  if (in.empty()) return;
  const auto which = static_cast<unsigned char>(in[0]);
  in.remove_prefix(1);
  switch (which % 4) {
    case 0: (void)parse_signature_text(in, "fuzz.sig"); break;
    case 1: (void)read_public_key_pem(in, "fuzz.pem"); break;
    case 2: (void)parse_cache_record(in, "current.json"); break;
    case 3: (void)read_bundle(in, "fuzz.json"); break;
  }
}

// The small readers of /proc, /sys and package files: the first byte picks
// one, the rest is its input, so one corpus grows for all of them.
void probe_files(std::string_view in) {
  if (in.empty()) return;
  const auto which = static_cast<unsigned char>(in[0]);
  in.remove_prefix(1);
  Facts f;
  switch (which % 20) {
    case 0: f.system.os = parse_os_release(in); break;
    case 1:
      if (auto m = parse_nvrm_version(in)) f.nvidia_driver.kernel_module = *m;
      break;
    case 2: f.nvidia_driver.gpus.push_back(parse_gpu_information(in)); break;
    case 3: (void)find_installed_package(in, "nvidia-"); break;
    case 4: f.kernel_log.xid_events = parse_xid_events(in); break;
    case 5: (void)parse_core_metadata(in); break;
    case 6: (void)parse_requirement(in); break;
    case 7: (void)parse_conda_meta(in); break;
    case 8: (void)parse_conda_depend(in); break;
    case 9: (void)parse_python_assignments(in); (void)parse_pyvenv_cfg(in); (void)parse_requires_txt(in); break;
    case 10: (void)parse_interpreter_answer(in); break;
    case 11: (void)parse_deep_answer(in); break;
    case 12: (void)parse_kfd_properties(in); break;
    case 13: (void)parse_rocm_version_file(in); (void)parse_rocm_version_header(in); (void)parse_hip_version_header(in); break;
    case 14: (void)cuda_version_from_version_json(in); (void)cuda_version_from_version_txt(in); (void)cuda_version_from_nvcc(in); break;
    case 15: (void)integer_defines(in); (void)mountinfo_mount_points(in); (void)macro_definitions(in); break;
    case 16: (void)pci_ids_name(in, "10de", "2330"); (void)pcie_gen_from_speed(in, pcie_transfer_rates()); (void)parse_link_width(in); break;
    case 17: (void)evaluate_marker(in, MarkerEnv{{{"platform_system", "Linux"}, {"python_version", "3.11"}}}); break;
    case 18: {
      (void)Version::parse(in);
      (void)Pep440Version::parse(in);
      (void)split_metadata_dir_name(in);
      (void)parse_dist_info_dir(in);
      (void)library_version_from_name(in, "libcudnn");
      (void)is_framework(in);
      (void)conda_build_of_record_file(in);
      auto fw = framework_from_name(in, in);
      if (const auto* file = framework_build_file(in)) file->read(in, fw);
      add_local_tag_facts(fw);
      add_conda_build_facts(fw, parse_conda_build(in));
      f.software.python.push_back(PythonEnv{});
      f.software.python.back().frameworks.push_back(std::move(fw));
      break;
    }
    case 19:
      if (auto s = parse_nvsmi_xml(in)) f.nvidia_smi = *s;
      else if (auto t = parse_nvsmi_text(in)) f.nvidia_smi = *t;
      else if (auto u = parse_nvsmi_table(in)) f.nvidia_smi = *u;
      break;
  }
  render(f);
}

// `gpucheck fleet`'s reader (simdjson On-Demand): one report in, the fleet
// it makes and its three renderings out.
void fleet_report(std::string_view in) {
  std::vector<FleetEntry> fleet;
  fleet.push_back({"fuzz.json", read_node_report(std::string(in), "fuzz.json")});
  const FleetSummary s = summarize_fleet(fleet);
  (void)render_fleet_text(s);
  must_parse(render_fleet_json(s, "0"), "the fleet JSON");
  (void)render_fleet_markdown(s);
}

}  // namespace

const std::vector<Target>& targets() {
  static const std::vector<Target> all = {
      {"report", report, "tests/data/reports;tests/data/nvsmi;tests/data/kernels;tests/fixtures/golden;tests/data/corpus;tests/data/pastes;tests/data/pastes-real;tests/data/links;../shared/corpus"},
      {"manifest", manifest, "tests/fixtures/hosts"},
      {"probes", probes, "tests/fixtures/hosts;tests/fuzz/regressions/manifest"},
      {"lockfile", lockfile, "tests/fixtures/golden"},
      {"matrix", matrix, "matrix;tests/data/matrix-broken;tests/data/matrix-broken-rules"},
      {"elf", elf, "/bin/true;/usr/lib/x86_64-linux-gnu/libz.so.1;/usr/lib/x86_64-linux-gnu/libdl.so.2"},
      {"ld_cache", ld_cache, "/etc/ld.so.cache"},
      {"update", update, "packaging/keys;tests/data/update"},
      {"probe_files", probe_files, "tests/data/proc;tests/data/python;tests/data/rocm;tests/data/kmsg"},
      {"fleet_report", fleet_report, "tests/fixtures/golden;tests/fuzz/regressions/fleet_report"},
  };
  return all;
}

const Target* target_named(std::string_view name) {
  for (const auto& t : targets())
    if (name == t.name) return &t;
  return nullptr;
}

}  // namespace gpucheck::fuzz
