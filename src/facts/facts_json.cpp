#include "facts/facts_json.hpp"

#include <utility>

#include "facts/json_util.hpp"
#include "util/json_text.hpp"

namespace gpucheck {
namespace {

J to_json(const PciDevice& d) {
  return J{{"address", d.address},
           {"vendor", to_string(d.vendor)},
           {"kind", to_string(d.kind)},
           {"vendor_id", d.vendor_id},
           {"device_id", d.device_id},
           {"subsystem_vendor_id", d.subsystem_vendor_id},
           {"subsystem_device_id", d.subsystem_device_id},
           {"class", d.class_code},
           {"name", opt(d.name)},
           {"driver", opt(d.driver)},
           {"numa_node", opt(d.numa_node)},
           {"link", to_json(d.link)},
           {"path", to_json(d.path)},
           {"source", d.source}};
}

J to_json(const UserspaceLibrary& u) {
  return J{{"soname", u.soname},       {"path", opt(u.path)},       {"via", opt(u.via)},
           {"real_path", opt(u.real_path)}, {"version", opt(u.version)}, {"stub", u.stub},
           {"compat", u.compat},       {"shadowed", u.shadowed}};
}

J to_json(const NvidiaDriverFacts& d) {
  J gpus = J::array();
  for (auto& g : d.gpus)
    gpus.push_back({{"bus_location", g.bus_location}, {"model", opt(g.model)}, {"uuid", opt(g.uuid)},
                    {"vbios", opt(g.vbios)}, {"bus_type", opt(g.bus_type)}, {"device_minor", opt(g.device_minor)},
                    {"excluded", opt(g.excluded)}, {"source", g.source}});
  const auto& m = d.kernel_module;
  return J{{"kernel_module_loaded", d.kernel_module_loaded},
           {"kernel_module",
            {{"version", opt(m.version)}, {"flavor", opt(m.flavor)}, {"arch", opt(m.arch)},
             {"build", opt(m.build)}, {"gcc_version", opt(m.gcc_version)},
             {"sys_module_version", opt(m.sys_module_version)}, {"source", m.source}}},
           {"gpus", std::move(gpus)},
           {"libcuda", to_json(d.libcuda)},
           {"libnvidia_ml", to_json(d.libnvidia_ml)},
           {"device_nodes", d.device_nodes}};
}

J to_json(const CudaDriverApiFacts& c) {
  J devs = J::array();
  for (auto& d : c.devices)
    devs.push_back({{"ordinal", d.ordinal}, {"name", opt(d.name)}, {"uuid", opt(d.uuid)},
                    {"compute_capability", opt(d.compute_capability)}, {"sm_count", opt(d.sm_count)},
                    {"memory_bytes", opt(d.memory_bytes)}, {"pci_bus_id", opt(d.pci_bus_id)}});
  return J{{"library", opt(c.library)},     {"init_code", opt(c.init_code)},
           {"init_name", opt(c.init_name)}, {"init_message", opt(c.init_message)},
           {"driver_version", opt(c.driver_version)}, {"device_count", opt(c.device_count)},
           {"devices", std::move(devs)}};
}

J to_json(const EccCounts& e) { return J{{"corrected", opt(e.corrected)}, {"uncorrected", opt(e.uncorrected)}}; }

J to_json(const SmiGpu& g) {
  return J{
      {"pci_bus_id", g.pci_bus_id},
      {"product_name", opt(g.product_name)},
      {"product_brand", opt(g.product_brand)},
      {"architecture", opt(g.architecture)},
      {"uuid", opt(g.uuid)},
      {"serial", opt(g.serial)},
      {"vbios", opt(g.vbios)},
      {"persistence_mode", opt(g.persistence_mode)},
      {"compute_mode", opt(g.compute_mode)},
      {"mig_mode", {{"current", opt(g.mig_mode_current)}, {"pending", opt(g.mig_mode_pending)}}},
      {"ecc_mode", {{"current", opt(g.ecc_mode_current)}, {"pending", opt(g.ecc_mode_pending)}}},
      {"ecc_errors", {{"volatile", to_json(g.ecc_volatile)}, {"aggregate", to_json(g.ecc_aggregate)}}},
      {"retired_pages",
       {{"single_bit", opt(g.retired_pages_single_bit)}, {"double_bit", opt(g.retired_pages_double_bit)},
        {"pending", opt(g.retired_pages_pending)}}},
      {"remapped_rows",
       {{"correctable", opt(g.remapped_rows_correctable)}, {"uncorrectable", opt(g.remapped_rows_uncorrectable)},
        {"pending", opt(g.remapped_rows_pending)}, {"failure", opt(g.remapped_rows_failure)}}},
      {"pcie",
       {{"gen_current", opt(g.pcie_gen_current)}, {"gen_max", opt(g.pcie_gen_max)},
        {"width_current", opt(g.pcie_width_current)}, {"width_max", opt(g.pcie_width_max)}}},
      {"clocks_mhz",
       {{"graphics", opt(g.clock_graphics_mhz)}, {"sm", opt(g.clock_sm_mhz)}, {"memory", opt(g.clock_mem_mhz)},
        {"graphics_max", opt(g.clock_graphics_max_mhz)}, {"sm_max", opt(g.clock_sm_max_mhz)},
        {"memory_max", opt(g.clock_mem_max_mhz)}}},
      {"clock_event_reasons", g.clock_event_reasons},
      {"temperature_c",
       {{"gpu", opt(g.temperature_c)}, {"slowdown", opt(g.temperature_slowdown_c)},
        {"shutdown", opt(g.temperature_shutdown_c)}, {"memory", opt(g.memory_temperature_c)}}},
      {"power_w", {{"draw", opt(g.power_draw_w)}, {"limit", opt(g.power_limit_w)}, {"max_limit", opt(g.power_max_limit_w)}}},
      {"fabric", {{"state", opt(g.fabric_state)}, {"status", opt(g.fabric_status)}}},
      {"memory_total_mib", opt(g.memory_total_mib)},
  };
}

}  // namespace

J to_json(const Note& n) {
  return J{{"subject", n.subject},
           {"item", n.item},
           {"reason", std::string(to_string(n.problem.reason))},
           {"where", n.problem.where},
           {"detail", n.problem.detail}};
}

J to_json(const ReportReading& r) {
  J blocks = J::array(), unread = J::array(), conflicts = J::array(), stated = J::array();
  for (auto& b : r.blocks)
    blocks.push_back({{"kind", b.kind}, {"first_line", b.first_line}, {"last_line", b.last_line}, {"note", opt(b.note)}});
  for (auto& l : r.unread) unread.push_back({{"line", l.line}, {"text", l.text}});
  for (auto& c : r.conflicts) {
    J values = J::array();
    for (auto& v : c.values) values.push_back({{"value", v.value}, {"source", v.source}});
    conflicts.push_back({{"fact", c.fact}, {"values", std::move(values)}});
  }
  for (auto& st : r.stated) stated.push_back({{"kind", st.value}, {"source", st.source}});
  J repos = J::array();
  for (auto& repo : r.repos) repos.push_back({{"value", repo.value}, {"source", repo.source}});
  J matrices = J::array();
  for (auto& m : r.peer_rates) {
    J rates = J::array();
    for (auto& x : m.rates) rates.push_back({{"src", x.src}, {"dst", x.dst}, {"gbs", x.gbs}});
    matrices.push_back({{"test", m.test}, {"peer_access", m.peer_access}, {"bidirectional", m.bidirectional},
                        {"rates", std::move(rates)}, {"source", m.source}});
  }
  J runs = J::array();
  for (auto& t : r.nccl_tests)
    runs.push_back({{"gpus", opt(t.gpus)}, {"wrong", t.wrong}, {"out_of_bounds", opt(t.out_of_bounds)},
                    {"avg_busbw_gbs", opt(t.avg_busbw_gbs)}, {"validated", t.validated}, {"source", t.source}});
  J topo = J::array();
  for (auto& m : r.topo) {
    J pairs = J::array();
    for (auto& x : m.pairs) pairs.push_back({{"src", x.src}, {"dst", x.dst}, {"word", x.word}});
    topo.push_back({{"test", m.test}, {"pairs", std::move(pairs)}, {"source", m.source}});
  }
  J oom = nullptr;
  if (r.out_of_memory)
    oom = {{"requested_bytes", opt(r.out_of_memory->requested_bytes)}, {"free_bytes", opt(r.out_of_memory->free_bytes)}, {"source", r.out_of_memory->source}};
  return J{{"name", r.name},
           {"blocks", std::move(blocks)},
           {"unread", std::move(unread)},
           {"unread_total", r.unread_total},
           {"conflicts", std::move(conflicts)},
           {"stated", std::move(stated)},
           {"out_of_memory", std::move(oom)},
           {"repos", std::move(repos)},
           {"peer_rates", std::move(matrices)},
           {"nccl_tests", std::move(runs)},
           {"topo", std::move(topo)}};
}

J to_json(const Facts& f) {
  J j;
  j["schema"] = kFactsSchema;
  const auto& s = f.system;
  J ngc = nullptr;
  if (s.container.ngc)
    ngc = J{{"framework", opt(s.container.ngc->framework)}, {"version", opt(s.container.ngc->version)},
            {"build_id", opt(s.container.ngc->build_id)}, {"cuda_version", opt(s.container.ngc->cuda_version)}};
  j["system"] = {{"hostname", opt(s.hostname)},
                 {"kernel_release", opt(s.kernel_release)},
                 {"arch", opt(s.arch)},
                 {"uptime_seconds", s.uptime_seconds ? J(*s.uptime_seconds) : J(nullptr)},
                 {"os",
                  {{"id", opt(s.os.id)}, {"version_id", opt(s.os.version_id)},
                   {"version_codename", opt(s.os.version_codename)}, {"pretty_name", opt(s.os.pretty_name)},
                   {"source", s.os.source}}},
                 {"container", {{"runtime", opt(s.container.runtime)}, {"evidence", s.container.evidence}, {"ngc", std::move(ngc)}}}};
  j["pci"] = J::array();
  for (auto& d : f.pci) j["pci"].push_back(to_json(d));
  j["nvidia_driver"] = to_json(f.nvidia_driver);
  j["cuda_driver_api"] = f.cuda ? to_json(*f.cuda) : J(nullptr);
  if (f.nvidia_smi) {
    J gpus = J::array();
    for (auto& g : f.nvidia_smi->gpus) gpus.push_back(to_json(g));
    j["nvidia_smi"] = {{"driver_version", opt(f.nvidia_smi->driver_version)},
                       {"cuda_version", opt(f.nvidia_smi->cuda_version)},
                       {"dtd", opt(f.nvidia_smi->dtd)},
                       {"gpus", std::move(gpus)},
                       {"source", f.nvidia_smi->source}};
  } else {
    j["nvidia_smi"] = nullptr;
  }
  j["services"] = J::array();
  for (auto& sv : f.services)
    j["services"].push_back({{"name", sv.name}, {"installed", sv.installed}, {"running", sv.running},
                             {"version", opt(sv.version)}, {"source", sv.source}});
  J xids = J::array();
  for (auto& x : f.kernel_log.xid_events)
    xids.push_back({{"seconds_since_boot", opt(x.seconds_since_boot)}, {"pci_bus_id", opt(x.pci_bus_id)},
                    {"xid", x.xid}, {"message", x.message}});
  j["kernel_log"] = {{"read", f.kernel_log.read}, {"xid_events", std::move(xids)}, {"source", f.kernel_log.source}};
  j["iommu"] = to_json(f.iommu);
  j["network"] = to_json(f.network);
  j["nvlink"] = f.nvlink ? to_json(*f.nvlink) : J(nullptr);
  j["software"] = to_json(f.software);
  j["kernels"] = f.kernels ? to_json(*f.kernels) : J(nullptr);
  // Only facts read from a paste have it: a probed host's JSON is unchanged.
  if (f.report) j["report"] = to_json(*f.report);
  j["notes"] = J::array();
  for (auto& n : f.notes) j["notes"].push_back(to_json(n));
  // A host's bytes need not be UTF-8 (a sysfs file, an environment
  // variable); JSON must be. The value keeps what could be read, and says so.
  std::vector<std::string> replaced;
  replace_invalid_utf8(j, [&](const std::string& path) { replaced.push_back(path); });
  for (auto& path : replaced)
    j["notes"].push_back(to_json(Note{path.substr(2, path.find_first_of(".[", 2) - 2), path,
                                      Problem{Reason::malformed, path, "not UTF-8: the invalid bytes are replaced with U+FFFD"}}));
  return j;
}

}  // namespace gpucheck
