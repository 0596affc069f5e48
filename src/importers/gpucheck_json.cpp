// The inverse of src/facts/facts_json.cpp: system, PCI, driver, CUDA driver
// API, nvidia-smi, services, kernel log and notes. Field for field, in the
// writer's order, so a new key in the writer has an obvious place here.
#include "importers/gpucheck_json.hpp"
#include "util/json_text.hpp"

#include <array>

namespace gpucheck {

namespace {

using Node = JsonReader::Node;

PciDevice read_pci(JsonReader& r, const Node& n) {
  PciDevice d;
  d.address = r.string(n, "address");
  d.vendor = r.word(n, "vendor", pci_vendor_named, pci_vendor_names(), PciVendor::nvidia);
  d.kind = r.word(n, "kind", pci_kind_named, pci_kind_names(), PciKind::gpu);
  d.vendor_id = r.string(n, "vendor_id");
  d.device_id = r.string(n, "device_id");
  d.subsystem_vendor_id = r.string(n, "subsystem_vendor_id");
  d.subsystem_device_id = r.string(n, "subsystem_device_id");
  d.class_code = r.string(n, "class");
  d.name = r.opt_string(n, "name");
  d.driver = r.opt_string(n, "driver");
  d.numa_node = r.opt_narrow<int>(n, "numa_node");
  d.link = read_pci_link(r, r.child(n, "link"));
  d.path = read_pci_path(r, r.child(n, "path"));
  d.source = r.string(n, "source");
  return d;
}

UserspaceLibrary read_userspace(JsonReader& r, const Node& n) {
  UserspaceLibrary u;
  u.soname = r.string(n, "soname");
  u.path = r.opt_string(n, "path");
  u.via = r.opt_string(n, "via");
  u.real_path = r.opt_string(n, "real_path");
  u.version = r.opt_string(n, "version");
  u.stub = r.boolean(n, "stub");
  u.compat = r.boolean(n, "compat");
  u.shadowed = r.strings(n, "shadowed");
  return u;
}

NvidiaDriverFacts read_driver(JsonReader& r, const Node& n) {
  NvidiaDriverFacts d;
  d.kernel_module_loaded = r.boolean(n, "kernel_module_loaded");
  const auto m = r.child(n, "kernel_module");
  d.kernel_module.version = r.opt_string(m, "version");
  d.kernel_module.flavor = r.opt_string(m, "flavor");
  d.kernel_module.arch = r.opt_string(m, "arch");
  d.kernel_module.build = r.opt_string(m, "build");
  d.kernel_module.gcc_version = r.opt_string(m, "gcc_version");
  d.kernel_module.sys_module_version = r.opt_string(m, "sys_module_version");
  d.kernel_module.source = r.string(m, "source");
  for (auto& g : r.objects(r.child(n, "gpus"))) {
    ProcGpu p;
    p.bus_location = r.string(g, "bus_location");
    p.model = r.opt_string(g, "model");
    p.uuid = r.opt_string(g, "uuid");
    p.vbios = r.opt_string(g, "vbios");
    p.bus_type = r.opt_string(g, "bus_type");
    p.device_minor = r.opt_string(g, "device_minor");
    p.excluded = r.opt_string(g, "excluded");
    p.source = r.string(g, "source");
    d.gpus.push_back(std::move(p));
  }
  d.libcuda = read_userspace(r, r.child(n, "libcuda"));
  d.libnvidia_ml = read_userspace(r, r.child(n, "libnvidia_ml"));
  d.device_nodes = r.strings(n, "device_nodes");
  return d;
}

CudaDriverApiFacts read_cuda(JsonReader& r, const Node& n) {
  CudaDriverApiFacts c;
  c.library = r.opt_string(n, "library");
  c.init_code = r.opt_narrow<int>(n, "init_code");
  c.init_name = r.opt_string(n, "init_name");
  c.init_message = r.opt_string(n, "init_message");
  c.driver_version = r.opt_string(n, "driver_version");
  c.device_count = r.opt_narrow<int>(n, "device_count");
  for (auto& d : r.objects(r.child(n, "devices"))) {
    CudaDevice dev;
    dev.ordinal = static_cast<int>(r.integer(d, "ordinal"));
    dev.name = r.opt_string(d, "name");
    dev.uuid = r.opt_string(d, "uuid");
    dev.compute_capability = r.opt_string(d, "compute_capability");
    dev.sm_count = r.opt_narrow<int>(d, "sm_count");
    dev.memory_bytes = r.opt_uint(d, "memory_bytes");
    dev.pci_bus_id = r.opt_string(d, "pci_bus_id");
    c.devices.push_back(std::move(dev));
  }
  return c;
}

EccCounts read_ecc(JsonReader& r, const Node& n) {
  return EccCounts{r.opt_int(n, "corrected"), r.opt_int(n, "uncorrected")};
}

SmiGpu read_smi_gpu(JsonReader& r, const Node& n) {
  SmiGpu g;
  g.pci_bus_id = r.string(n, "pci_bus_id");
  g.product_name = r.opt_string(n, "product_name");
  g.product_brand = r.opt_string(n, "product_brand");
  g.architecture = r.opt_string(n, "architecture");
  g.uuid = r.opt_string(n, "uuid");
  g.serial = r.opt_string(n, "serial");
  g.vbios = r.opt_string(n, "vbios");
  g.persistence_mode = r.opt_string(n, "persistence_mode");
  g.compute_mode = r.opt_string(n, "compute_mode");
  const auto mig = r.child(n, "mig_mode");
  g.mig_mode_current = r.opt_string(mig, "current");
  g.mig_mode_pending = r.opt_string(mig, "pending");
  const auto ecc = r.child(n, "ecc_mode");
  g.ecc_mode_current = r.opt_string(ecc, "current");
  g.ecc_mode_pending = r.opt_string(ecc, "pending");
  const auto errors = r.child(n, "ecc_errors");
  g.ecc_volatile = read_ecc(r, r.child(errors, "volatile"));
  g.ecc_aggregate = read_ecc(r, r.child(errors, "aggregate"));
  const auto retired = r.child(n, "retired_pages");
  g.retired_pages_single_bit = r.opt_narrow<int>(retired, "single_bit");
  g.retired_pages_double_bit = r.opt_narrow<int>(retired, "double_bit");
  g.retired_pages_pending = r.opt_bool(retired, "pending");
  const auto remapped = r.child(n, "remapped_rows");
  g.remapped_rows_correctable = r.opt_narrow<int>(remapped, "correctable");
  g.remapped_rows_uncorrectable = r.opt_narrow<int>(remapped, "uncorrectable");
  g.remapped_rows_pending = r.opt_bool(remapped, "pending");
  g.remapped_rows_failure = r.opt_bool(remapped, "failure");
  const auto pcie = r.child(n, "pcie");
  g.pcie_gen_current = r.opt_narrow<int>(pcie, "gen_current");
  g.pcie_gen_max = r.opt_narrow<int>(pcie, "gen_max");
  g.pcie_width_current = r.opt_narrow<int>(pcie, "width_current");
  g.pcie_width_max = r.opt_narrow<int>(pcie, "width_max");
  const auto clocks = r.child(n, "clocks_mhz");
  g.clock_graphics_mhz = r.opt_narrow<int>(clocks, "graphics");
  g.clock_sm_mhz = r.opt_narrow<int>(clocks, "sm");
  g.clock_mem_mhz = r.opt_narrow<int>(clocks, "memory");
  g.clock_graphics_max_mhz = r.opt_narrow<int>(clocks, "graphics_max");
  g.clock_sm_max_mhz = r.opt_narrow<int>(clocks, "sm_max");
  g.clock_mem_max_mhz = r.opt_narrow<int>(clocks, "memory_max");
  g.clock_event_reasons = r.bool_map(n, "clock_event_reasons");
  const auto temp = r.child(n, "temperature_c");
  g.temperature_c = r.opt_narrow<int>(temp, "gpu");
  g.temperature_slowdown_c = r.opt_narrow<int>(temp, "slowdown");
  g.temperature_shutdown_c = r.opt_narrow<int>(temp, "shutdown");
  g.memory_temperature_c = r.opt_narrow<int>(temp, "memory");
  const auto power = r.child(n, "power_w");
  g.power_draw_w = r.opt_double(power, "draw");
  g.power_limit_w = r.opt_double(power, "limit");
  g.power_max_limit_w = r.opt_double(power, "max_limit");
  const auto fabric = r.child(n, "fabric");
  g.fabric_state = r.opt_string(fabric, "state");
  g.fabric_status = r.opt_string(fabric, "status");
  g.memory_total_mib = r.opt_int(n, "memory_total_mib");
  return g;
}

NvidiaSmiFacts read_smi(JsonReader& r, const Node& n) {
  NvidiaSmiFacts s;
  s.driver_version = r.opt_string(n, "driver_version");
  s.cuda_version = r.opt_string(n, "cuda_version");
  s.dtd = r.opt_string(n, "dtd");
  for (auto& g : r.objects(r.child(n, "gpus"))) s.gpus.push_back(read_smi_gpu(r, g));
  s.source = r.string(n, "source");
  return s;
}

Note read_note(JsonReader& r, const Node& n) {
  Note note;
  note.subject = r.string(n, "subject");
  note.item = r.string(n, "item");
  const auto reason = r.string(n, "reason");
  if (auto parsed = reason_named(reason)) {
    note.problem.reason = *parsed;
  } else {
    const auto c = r.child(n, "reason");
    r.fail(c.path, "one of " + reason_names(), c.j);
  }
  note.problem.where = r.string(n, "where");
  note.problem.detail = r.string(n, "detail");
  return note;
}

SystemFacts read_system(JsonReader& r, const Node& n) {
  SystemFacts s;
  s.hostname = r.opt_string(n, "hostname");
  s.kernel_release = r.opt_string(n, "kernel_release");
  s.arch = r.opt_string(n, "arch");
  s.uptime_seconds = r.opt_double(n, "uptime_seconds");
  const auto os = r.child(n, "os");
  s.os.id = r.opt_string(os, "id");
  s.os.version_id = r.opt_string(os, "version_id");
  s.os.version_codename = r.opt_string(os, "version_codename");
  s.os.pretty_name = r.opt_string(os, "pretty_name");
  s.os.source = r.string(os, "source");
  const auto c = r.child(n, "container");
  s.container.runtime = r.opt_string(c, "runtime");
  s.container.evidence = r.strings(c, "evidence");
  const auto ngc = r.child(c, "ngc");
  if (!ngc.absent()) {
    NgcImage image;
    image.framework = r.opt_string(ngc, "framework");
    image.version = r.opt_string(ngc, "version");
    image.build_id = r.opt_string(ngc, "build_id");
    image.cuda_version = r.opt_string(ngc, "cuda_version");
    s.container.ngc = image;
  }
  return s;
}

ReportReading read_report_reading(JsonReader& r, const Node& n) {
  ReportReading out;
  out.name = r.string(n, "name");
  for (auto& b : r.objects(r.child(n, "blocks")))
    out.blocks.push_back(ReportBlock{r.string(b, "kind"), static_cast<int>(r.integer(b, "first_line")),
                                     static_cast<int>(r.integer(b, "last_line")), r.opt_string(b, "note")});
  for (auto& l : r.objects(r.child(n, "unread")))
    out.unread.push_back(ReportLine{static_cast<int>(r.integer(l, "line")), r.string(l, "text")});
  out.unread_total = static_cast<int>(r.opt_int(n, "unread_total").value_or(static_cast<std::int64_t>(out.unread.size())));
  for (auto& c : r.objects(r.child(n, "conflicts"))) {
    ReportConflict conflict{r.string(c, "fact"), {}};
    for (auto& v : r.objects(r.child(c, "values"))) conflict.values.push_back(ReportStatement{r.string(v, "value"), r.string(v, "source")});
    out.conflicts.push_back(std::move(conflict));
  }
  // Absent in reports written before error kinds were recorded: none.
  for (auto& st : r.objects(r.child(n, "stated"))) out.stated.push_back(ReportStatement{r.string(st, "kind"), r.string(st, "source")});
  // Absent in reports written before these were read: none.
  if (const auto oom = r.child(n, "out_of_memory"); !oom.absent())
    out.out_of_memory = OutOfMemoryStatement{r.opt_uint(oom, "requested_bytes"), r.opt_uint(oom, "free_bytes"), r.string(oom, "source")};
  for (auto& repo : r.objects(r.child(n, "repos")))
    if (out.repos.size() < kReportReposKept) out.repos.push_back(ReportStatement{r.string(repo, "value"), r.string(repo, "source")});
  for (auto& m : r.objects(r.child(n, "peer_rates"))) {
    if (out.peer_rates.size() == kMaxPeerRateMatrices) break;
    PeerRateMatrix matrix{r.string(m, "test"), r.boolean(m, "peer_access"), r.boolean(m, "bidirectional"), {}, r.string(m, "source")};
    for (auto& x : r.objects(r.child(m, "rates"))) {
      if (matrix.rates.size() == kMaxPeerRateGpus * (kMaxPeerRateGpus - 1)) break;
      matrix.rates.push_back(PeerRate{static_cast<int>(r.integer(x, "src")), static_cast<int>(r.integer(x, "dst")), r.number(x, "gbs")});
    }
    out.peer_rates.push_back(std::move(matrix));
  }
  for (auto& m : r.objects(r.child(n, "topo"))) {
    if (out.topo.size() == kMaxTopoMatrices) break;
    TopoMatrix matrix{r.string(m, "test"), {}, r.string(m, "source")};
    for (auto& x : r.objects(r.child(m, "pairs"))) {
      if (matrix.pairs.size() == kMaxPeerRateGpus * (kMaxPeerRateGpus - 1)) break;
      matrix.pairs.push_back(GpuPairWord{static_cast<int>(r.integer(x, "src")), static_cast<int>(r.integer(x, "dst")), r.string(x, "word")});
    }
    out.topo.push_back(std::move(matrix));
  }
  for (auto& t : r.objects(r.child(n, "nccl_tests"))) {
    if (out.nccl_tests.size() == kMaxNcclTestRuns) break;
    out.nccl_tests.push_back(NcclTestRun{r.opt_narrow<int>(t, "gpus"), r.opt_uint(t, "wrong").value_or(0), r.opt_uint(t, "out_of_bounds"),
                                         r.opt_double(t, "avg_busbw_gbs"), r.boolean(t, "validated"), r.string(t, "source")});
  }
  return out;
}

}  // namespace

Result<Facts> facts_from_json(std::string_view text, std::string_view name) {
  const std::string where(name);
  auto parsed = parse_json(text);
  if (!parsed) return Problem{Reason::malformed, where, parsed.problem().detail + " (a gpucheck facts file is one JSON object)"};
  const nlohmann::json& j = *parsed;
  if (!j.is_object()) return Problem{Reason::malformed, where, "top level: expected an object"};
  const auto schema = j.find("schema");
  if (schema == j.end() || !schema->is_string())
    return Problem{Reason::malformed, where, "schema: expected the string \"" + std::string(kFactsSchema) + "\""};
  if (schema->get<std::string>() != kFactsSchema)
    return Problem{Reason::malformed, where,
                   "schema: this gpucheck reads \"" + std::string(kFactsSchema) + "\", the file is \"" +
                       schema->get<std::string>() + "\" (use the gpucheck that wrote it, or re-run the probe)"};

  JsonReader r(where);
  const Node root{&j, ""};
  Facts f;
  f.system = read_system(r, r.child(root, "system"));
  for (auto& d : r.objects(r.child(root, "pci"))) f.pci.push_back(read_pci(r, d));
  f.nvidia_driver = read_driver(r, r.child(root, "nvidia_driver"));
  if (auto c = r.child(root, "cuda_driver_api"); !c.absent()) f.cuda = read_cuda(r, c);
  if (auto s = r.child(root, "nvidia_smi"); !s.absent()) f.nvidia_smi = read_smi(r, s);
  for (auto& s : r.objects(r.child(root, "services"))) {
    ServiceFacts sv;
    sv.name = r.string(s, "name");
    sv.installed = r.boolean(s, "installed");
    sv.running = r.boolean(s, "running");
    sv.version = r.opt_string(s, "version");
    sv.source = r.string(s, "source");
    f.services.push_back(std::move(sv));
  }
  const auto log = r.child(root, "kernel_log");
  f.kernel_log.read = r.boolean(log, "read");
  for (auto& x : r.objects(r.child(log, "xid_events"))) {
    XidEvent e;
    e.seconds_since_boot = r.opt_double(x, "seconds_since_boot");
    e.pci_bus_id = r.opt_string(x, "pci_bus_id");
    e.xid = static_cast<int>(r.integer(x, "xid"));
    e.message = r.string(x, "message");
    f.kernel_log.xid_events.push_back(std::move(e));
  }
  f.kernel_log.source = r.string(log, "source");
  f.iommu = read_iommu(r, r.child(root, "iommu"));
  f.network = read_network(r, r.child(root, "network"));
  if (auto l = r.child(root, "nvlink"); !l.absent()) f.nvlink = read_nvlink(r, l);
  f.software = read_software(r, r.child(root, "software"));
  if (auto k = r.child(root, "kernels"); !k.absent()) f.kernels = read_kernels(r, k);
  if (auto p = r.child(root, "report"); !p.absent()) f.report = read_report_reading(r, p);
  for (auto& n : r.objects(r.child(root, "notes"))) f.notes.push_back(read_note(r, n));
  if (r.problem()) return *r.problem();
  return f;
}

}  // namespace gpucheck
