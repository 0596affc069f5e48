// The ROCm stack, read from files: installs under /opt (version files and
// headers, which one is active), the amdgpu kernel module, the KFD topology
// (gfx target, SIMDs and VRAM of every GPU node), the HIP version from its
// header, the ROCm environment variables; and the ROCm SMI library asked
// directly, dlopen'ed in a child process with a deadline (Host::isolated_call),
// so a library that hangs or crashes becomes a note.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "child_answer.hpp"
#include "host/dynamic_library.hpp"
#include "host/symbol_table.hpp"
#include "parse/rocm_files.hpp"
#include "probe.hpp"
#include "rocm_smi_api.hpp"
#include "util/strings.hpp"
#include "util/json_text.hpp"

namespace gpucheck {
namespace {

using nlohmann::json;
using namespace rsmi;  // the entry-point list names rsmi_status_t, rsmi_version_t
constexpr const char* kSubject = "rocm";
constexpr const char* kCallKey = "rocm-smi";
constexpr const char* kKfdNodes = "/sys/class/kfd/kfd/topology/nodes";

// Newest first: ROCm 7 ships librocm_smi64.so.7, ROCm 6 .so.6, ROCm 5 .so.5;
// Debian 12's librocm-smi64-1 (5.2.3, built without ROCm's version tags) is .so.1.
const char* const kSmiSonames[] = {"librocm_smi64.so.7", "librocm_smi64.so.6", "librocm_smi64.so.5", "librocm_smi64.so.1"};

// What decides which GPUs and which ISA a ROCm job sees.
const char* const kEnvVars[] = {"HSA_OVERRIDE_GFX_VERSION", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES",
                                "GPU_DEVICE_ORDINAL", "ROCM_PATH"};

struct Api {
#define GPUCHECK_DECLARE(name, ret, params) ret(*name) params = nullptr;
  GPUCHECK_RSMI_ENTRY_POINTS(GPUCHECK_DECLARE)
#undef GPUCHECK_DECLARE
};

// The library reports why rsmi_init failed on stderr (std::cerr): in the
// child, catch it in an anonymous file so it reaches the note, not the
// user's terminal.
class StderrCapture {
 public:
  StderrCapture() : fd_(::memfd_create("rocm-smi-stderr", 0)) {
    if (fd_ >= 0) ::dup2(fd_, STDERR_FILENO);
  }
  std::string text() const {
    std::string out;
    if (fd_ < 0 || ::lseek(fd_, 0, SEEK_SET) != 0) return out;
    char buf[4096];
    const ssize_t n = ::read(fd_, buf, sizeof buf);
    if (n > 0) out.assign(buf, static_cast<std::size_t>(n));
    return out;
  }

 private:
  int fd_;
};

// Runs in the child. Prints one JSON object: the answers, or where it stopped.
std::string query_smi(const std::vector<std::string>& candidates) {
  StderrCapture err;
  auto lib = DynamicLibrary::open(candidates);
  if (!lib) return dump_json(json{{"load_error", lib.problem().detail}});
  json out;
  out["library"] = lib->opened();
  Api api;
#define GPUCHECK_SLOT(name, ret, params) SymbolSlot{#name, &api.name},
  out["missing_symbols"] = resolve_symbols(*lib, {GPUCHECK_RSMI_ENTRY_POINTS(GPUCHECK_SLOT)});
#undef GPUCHECK_SLOT
  if (api.rsmi_init) {
    const rsmi::rsmi_status_t init = api.rsmi_init(0);
    out["init_status"] = init;
    const char* text = nullptr;
    if (api.rsmi_status_string && api.rsmi_status_string(init, &text) == rsmi::kSuccess && text) out["init_message"] = text;
    rsmi::rsmi_version_t v{};
    if (api.rsmi_version_get && api.rsmi_version_get(&v) == rsmi::kSuccess) {
      out["version"] = std::to_string(v.major) + "." + std::to_string(v.minor) + "." + std::to_string(v.patch);
      if (v.build) out["version_build"] = std::string(v.build);
    }
    if (init == rsmi::kSuccess) {
      std::uint32_t n = 0;
      if (api.rsmi_num_monitor_devices && api.rsmi_num_monitor_devices(&n) == rsmi::kSuccess) out["device_count"] = n;
      if (api.rsmi_shut_down) api.rsmi_shut_down();
    }
  }
  if (auto e = err.text(); !e.empty()) out["stderr"] = e;
  return dump_json(out);
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Numeric directory entries (KFD nodes, memory banks), in numeric order.
std::vector<int> numbered(const std::vector<DirEntry>& entries) {
  std::vector<int> out;
  for (auto& e : entries)
    if (e.type == EntryType::directory && all_digits(e.name) && e.name.size() < 9) out.push_back(std::stoi(e.name));
  std::sort(out.begin(), out.end());
  return out;
}

std::string first_line(std::string_view s) {
  const auto lines = split_lines(s);
  for (auto l : lines)
    if (!trim(l).empty()) return std::string(trim(l));
  return {};
}

// --- installs ---

// The first version source of an install that can be read and understood.
void read_install_version(ProbeContext& ctx, RocmInstall& in) {
  struct Source {
    const char* rel;
    Result<std::string> (*parse)(std::string_view);
  };
  const Source sources[] = {
      {"/.info/version", parse_rocm_version_file},
      {"/.info/version-dev", parse_rocm_version_file},
      {"/include/rocm-core/rocm_version.h", parse_rocm_version_header},
      {"/include/rocm_version.h", parse_rocm_version_header},
  };
  for (auto& s : sources) {
    const std::string path = in.root + s.rel;
    auto text = ctx.host().read_file(path, 1 << 20);
    if (!text) {
      if (text.problem().reason != Reason::absent) ctx.note(kSubject, "ROCm version of " + in.root, text.problem());
      continue;
    }
    auto v = is_text(*text) ? s.parse(*text) : Result<std::string>(Problem{Reason::malformed, path, "holds binary data, not text"});
    if (!v) {
      ctx.note(kSubject, "ROCm version of " + in.root, Problem{Reason::malformed, path, v.problem().detail});
      continue;
    }
    in.version = *v;
    in.version_source = path;
    return;
  }
  if (!in.version)
    ctx.note(kSubject, "ROCm version of " + in.root,
             Problem{Reason::absent, in.root, "no readable .info/version, .info/version-dev, include/rocm-core/rocm_version.h or include/rocm_version.h"});
}

void find_installs(ProbeContext& ctx, RocmFacts& r) {
  const auto& host = ctx.host();
  std::optional<std::string> opt_rocm_target;  // where /opt/rocm leads, when it is a link
  if (auto opt = host.list_dir("/opt")) {
    for (auto& e : *opt) {
      if (e.name != "rocm" && !starts_with(e.name, "rocm-")) continue;
      const std::string path = "/opt/" + e.name;
      if (host.read_link(path)) {  // an alias (/opt/rocm -> /etc/alternatives/rocm -> /opt/rocm-6.0.2), not an install
        if (e.name == "rocm") {
          if (auto t = host.real_path(path)) opt_rocm_target = *t;
          else ctx.note(kSubject, "/opt/rocm", t.problem());
        }
        continue;
      }
      if (e.type != EntryType::directory) continue;
      RocmInstall in;
      in.root = path;
      if (e.name == "rocm") opt_rocm_target = path;  // a plain directory: it is what /opt/rocm means
      r.installs.push_back(std::move(in));
    }
  } else if (opt.problem().reason != Reason::absent) {
    ctx.note(kSubject, "ROCm installs", opt.problem());
  }

  // ROCM_PATH wins over /opt/rocm, as in ROCm's own tools (rocm-core's getROCmInstallPath).
  std::optional<std::string> rocm_path_target;
  if (auto rp = host.env("ROCM_PATH"); rp && !rp->empty()) {
    std::string p = *rp;
    while (p.size() > 1 && p.back() == '/') p.pop_back();
    if (auto t = host.real_path(p)) {
      rocm_path_target = *t;
      const bool known = std::any_of(r.installs.begin(), r.installs.end(), [&](auto& i) { return i.root == *t; });
      if (!known) {
        RocmInstall in;
        in.root = *t;
        r.installs.push_back(std::move(in));
      }
    } else {
      ctx.note(kSubject, "ROCM_PATH", Problem{t.problem().reason, p, "ROCM_PATH names " + p + ": " + t.problem().detail});
    }
  }
  const auto active = rocm_path_target ? rocm_path_target : opt_rocm_target;
  for (auto& in : r.installs) {
    in.active = active && in.root == *active;
    read_install_version(ctx, in);
  }
  std::sort(r.installs.begin(), r.installs.end(), [](auto& a, auto& b) { return a.root < b.root; });
}

// The HIP runtime's version from the header hip-dev installs (never by loading libamdhip64).
void read_hip_version(ProbeContext& ctx, RocmFacts& r) {
  const RocmInstall* in = nullptr;
  for (auto& i : r.installs)
    if (i.active) in = &i;
  if (!in && r.installs.size() == 1) in = &r.installs.front();
  if (!in) {
    if (!r.installs.empty())
      ctx.note(kSubject, "HIP version", Problem{Reason::absent, "/opt/rocm", "several ROCm installs and none active (no /opt/rocm link, no ROCM_PATH)"});
    return;
  }
  // ROCm 5.2+ puts it in include/hip; older releases in hip/include/hip.
  for (const char* rel : {"/include/hip/hip_version.h", "/hip/include/hip/hip_version.h"}) {
    const std::string path = in->root + rel;
    auto text = ctx.host().read_file(path, 1 << 20);
    if (!text) {
      if (text.problem().reason != Reason::absent) ctx.note(kSubject, "HIP version", text.problem());
      continue;
    }
    auto v = parse_hip_version_header(*text);
    if (!v) {
      ctx.note(kSubject, "HIP version", Problem{Reason::malformed, path, v.problem().detail});
      continue;
    }
    r.hip_version = *v;
    return;
  }
  if (!r.hip_version)
    ctx.note(kSubject, "HIP version", Problem{Reason::absent, in->root + "/include/hip/hip_version.h", "no HIP headers in " + in->root + " (hip-dev not installed)"});
}

// --- kernel side ---

// True when the module is loaded at all.
bool read_amdgpu(ProbeContext& ctx, RocmFacts& r) {
  const auto& host = ctx.host();
  auto v = host.read_file("/sys/module/amdgpu/version", 4096);
  if (v) {
    const auto line = first_line(*v);
    if (is_text(*v) && !line.empty()) r.amdgpu_module_version = line;
    else ctx.note(kSubject, "amdgpu module version", Problem{Reason::malformed, "/sys/module/amdgpu/version", "empty or not text"});
    return true;
  }
  if (v.problem().reason != Reason::absent) {
    ctx.note(kSubject, "amdgpu module version", v.problem());
    return true;
  }
  if (host.exists("/sys/module/amdgpu")) {
    // Only an out-of-tree module (amdgpu-dkms) has a MODULE_VERSION.
    ctx.note(kSubject, "amdgpu module version",
             Problem{Reason::absent, "/sys/module/amdgpu/version", "amdgpu is loaded without a version: the kernel's in-tree module, not amdgpu-dkms"});
    return true;
  }
  return false;
}

std::optional<std::uint64_t> read_vram(ProbeContext& ctx, const std::string& node_dir) {
  const std::string dir = node_dir + "/mem_banks";
  auto banks = ctx.host().list_dir(dir);
  if (!banks) {
    ctx.note(kSubject, "VRAM of " + node_dir, banks.problem());
    return std::nullopt;
  }
  std::optional<std::uint64_t> total;
  for (int b : numbered(*banks)) {
    const std::string path = dir + "/" + std::to_string(b) + "/properties";
    auto text = ctx.read_text(kSubject, "memory bank " + path, path);
    if (!text) continue;
    auto p = parse_kfd_properties(*text);
    if (!p) {
      ctx.note(kSubject, "memory bank " + path, Problem{Reason::malformed, path, p.problem().detail});
      continue;
    }
    // HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC = 1 (CPU-visible), _PRIVATE = 2
    // (ROCT-Thunk-Interface include/hsakmt/hsakmttypes.h); 0 is system memory.
    const auto heap = p->get("heap_type"), size = p->get("size_in_bytes");
    if (!heap || (*heap != 1 && *heap != 2)) continue;
    if (!size) {
      ctx.note(kSubject, "memory bank " + path, Problem{Reason::malformed, path, "a frame-buffer bank without size_in_bytes"});
      continue;
    }
    total = total.value_or(0) + *size;
  }
  if (!total)
    ctx.note(kSubject, "VRAM of " + node_dir, Problem{Reason::absent, dir, "no frame-buffer memory bank (heap_type 1 or 2): an APU shares system memory"});
  return total;
}

// True when the topology exists (the amdkfd driver is up).
bool read_kfd(ProbeContext& ctx, RocmFacts& r) {
  auto nodes = ctx.host().list_dir(kKfdNodes);
  if (!nodes) {
    if (nodes.problem().reason != Reason::absent) ctx.note(kSubject, "KFD topology", nodes.problem());
    return false;
  }
  for (int id : numbered(*nodes)) {
    const std::string dir = std::string(kKfdNodes) + "/" + std::to_string(id);
    const std::string path = dir + "/properties";
    const std::string item = "KFD node " + std::to_string(id);
    auto text = ctx.read_text(kSubject, item, path);
    if (!text) continue;
    auto p = parse_kfd_properties(*text);
    if (!p) {
      ctx.note(kSubject, item, Problem{Reason::malformed, path, p.problem().detail});
      continue;
    }
    if (!p->bad_lines.empty()) {
      std::vector<std::string> shown(p->bad_lines.begin(), p->bad_lines.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(3, p->bad_lines.size())));
      ctx.note(kSubject, item, Problem{Reason::malformed, path, std::to_string(p->bad_lines.size()) + " unreadable line(s): " + join(shown, ", ")});
    }
    const auto simd = p->get("simd_count"), gfx = p->get("gfx_target_version");
    if (simd && *simd == 0) continue;  // a CPU node
    if (!simd) {
      ctx.note(kSubject, item, Problem{Reason::malformed, path, "no simd_count: cannot tell a CPU node from a GPU; judged by gfx_target_version"});
      if (!gfx || *gfx == 0) continue;
    }
    KfdNode n;
    n.node = id;
    n.source = dir;
    if (simd) n.simd_count = static_cast<int>(std::min<std::uint64_t>(*simd, 1u << 30));
    if (gfx) {
      n.gfx_target = gfx_target_name(*gfx);
      if (!n.gfx_target) ctx.note(kSubject, item + " gfx target", Problem{Reason::malformed, path, "gfx_target_version " + std::to_string(*gfx) + " names no gfx target"});
    } else {
      ctx.note(kSubject, item + " gfx target", Problem{Reason::absent, path, "no gfx_target_version (kernels before 5.15 do not report it)"});
    }
    if (auto d = p->get("device_id"); d && *d <= 0xffff) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "%04llx", static_cast<unsigned long long>(*d));
      n.device_id = buf;
    }
    n.vram_bytes = read_vram(ctx, dir);
    r.gpu_nodes.push_back(std::move(n));
  }
  return true;
}

// --- ROCm SMI ---

// Where a program would load the library from: the loader's answer for each
// soname, then each install's own lib directory (ROCm does not always add it
// to ld.so.conf). Decided from files alone, so live and replay agree.
std::vector<std::string> smi_candidates(ProbeContext& ctx, const RocmFacts& r) {
  std::vector<std::string> out;
  auto add = [&](const std::string& p) {
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  };
  for (const char* so : kSmiSonames) {
    const auto loc = ctx.locator().locate(so);
    if (!loc.copies.empty()) add(loc.copies.front().path);
  }
  std::vector<const RocmInstall*> installs;
  for (auto& i : r.installs)
    if (i.active) installs.insert(installs.begin(), &i);
    else installs.push_back(&i);
  for (auto* i : installs)
    for (const char* so : kSmiSonames)
      if (const std::string p = i->root + "/lib/" + so; ctx.host().exists(p)) add(p);
  return out;
}

void read_rocm_smi_answer(ProbeContext& ctx, RocmFacts& r, ProbeContext::CallAnswer& call) {
  const auto parsed = child_answer(ctx, ChildCall{kSubject, "ROCm SMI", kCallKey, call.library,
                                                  "librocm_smi64 did not answer within " + std::to_string(call.deadline.count()) +
                                                      " ms (rsmi_init hung)"},
                                   call.answer);
  if (!parsed) return;
  const json& j = *parsed;
  RocmSmiFacts s;
  s.library = json_field<std::string>(j, "library");
  // rsmi_status_t is unsigned; RSMI_STATUS_UNKNOWN_ERROR (0xFFFFFFFF) reads as -1.
  if (auto st = json_field<std::uint32_t>(j, "init_status")) s.init_status = static_cast<int>(*st);
  s.init_message = json_field<std::string>(j, "init_message");
  s.version = json_field<std::string>(j, "version");
  if (auto n = json_field<std::uint32_t>(j, "device_count")) s.device_count = static_cast<int>(std::min<std::uint32_t>(*n, 1u << 30));
  const std::string lib = s.library.value_or(call.library);
  if (auto m = json_field<std::vector<std::string>>(j, "missing_symbols"); m && !m->empty())
    ctx.note(kSubject, "ROCm SMI entry points", Problem{Reason::absent, lib, "the library lacks " + join(*m, ", ")});
  const auto said = first_line(json_field<std::string>(j, "stderr").value_or(""));
  if (s.init_status && *s.init_status != 0) {
    ctx.note(kSubject, "rsmi_init",
             Problem{Reason::failed, lib,
                     "rsmi_init returned " + std::to_string(static_cast<std::uint32_t>(*s.init_status)) +
                         (s.init_message ? " (" + *s.init_message + ")" : "") +
                         (said.empty() ? "" : "; the library said: " + said)});
  }
  r.smi = std::move(s);
}

}  // namespace

void probe_rocm(ProbeContext& ctx) {
  RocmFacts r;
  for (const char* name : kEnvVars)
    if (auto v = ctx.host().env(name)) r.env[name] = *v;
  find_installs(ctx, r);
  const bool module_loaded = read_amdgpu(ctx, r);
  const bool kfd = read_kfd(ctx, r);
  const auto candidates = smi_candidates(ctx, r);
  if (r.installs.empty() && !module_loaded && !kfd && candidates.empty() && r.env.empty()) {
    ctx.note(kSubject, "ROCm", Problem{Reason::absent, "/opt/rocm", "no ROCm install (/opt/rocm*, ROCM_PATH), no amdgpu kernel module, no KFD topology, no librocm_smi64"});
    ctx.facts().software.rocm = std::move(r);
    return;
  }
  if (!module_loaded && !r.installs.empty())
    ctx.note(kSubject, "amdgpu kernel module", Problem{Reason::absent, "/sys/module/amdgpu", "not loaded: ROCm is installed but no AMD GPU driver runs"});
  if (!kfd && module_loaded)
    ctx.note(kSubject, "KFD topology", Problem{Reason::absent, kKfdNodes, "amdgpu is loaded but /dev/kfd's topology is not there (no compute-capable AMD GPU, or amdgpu without KFD)"});
  read_hip_version(ctx, r);
  if (candidates.empty())
    ctx.note(kSubject, "ROCm SMI", Problem{Reason::absent, "librocm_smi64.so", "not found on LD_LIBRARY_PATH, in ld.so.cache, the default directories or an install's lib/"});
  else if (!module_loaded && !kfd && !ctx.options().deep)
    // Without the driver it has no GPU to report, and asking it costs a
    // process: a prolog on an NVIDIA node with Debian's librocm-smi pays it
    // before every job.
    ctx.note(kSubject, "ROCm SMI", Problem{Reason::absent, candidates.front(), "not asked: no amdgpu kernel module and no KFD topology, so it has no GPU to report (--deep asks it)"});
  else
    ctx.start_call(IsolatedCall{kCallKey, candidates}, ctx.deadline().cap(ctx.options().driver_timeout), candidates.front());
  ctx.facts().software.rocm = std::move(r);
}

const IsolatedEntry kRocmSmiCall{kCallKey, query_smi};

void finish_rocm(ProbeContext& ctx) {
  if (auto call = ctx.take_call(kCallKey)) read_rocm_smi_answer(ctx, ctx.facts().software.rocm, *call);
}

}  // namespace gpucheck
