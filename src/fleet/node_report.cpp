// Reads a node's report with simdjson's On-Demand parser: one pass over the
// bytes, values the fleet does not need skipped without being built. Chosen
// by measurement (docs/PERFORMANCE.md, Fleet skew): on the H100 fixture's
// 32 KB report, 0.04 ms a report against 0.41 ms for nlohmann's SAX
// interface with an empty handler, which alone would take 10,000 reports
// past a second on two cores.
#include "fleet/node_report.hpp"

#include <simdjson.h>

#include <algorithm>

#include "facts/network_summary.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

namespace od = simdjson::ondemand;

// The values one source gives (one a GPU); the distinct ones, sorted and
// joined, are the field. Sorted once at the end, not searched per GPU: no
// step quadratic in GPUs.
struct Values {
  std::vector<std::string> v;
  void add(std::string_view s) { v.emplace_back(s); }
  std::optional<std::string> joined() const {
    if (v.empty()) return std::nullopt;
    std::vector<std::string> distinct = v;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    return join(distinct, ", ");
  }
};

// What one source says about the GPUs.
struct GpuSource {
  std::size_t count = 0;
  Values models, vbios, widths, ecc;
};

// What the facts say, per source, before the precedence is applied.
struct Scan {
  std::optional<std::string> kernel_module, smi_driver, libcuda, cuda_api, smi_cuda, toolkit;
  Values cudnn, nccl, torch;
  GpuSource smi, cuda, proc, pci;
  NetworkFacts network;  // what the summary needs of it
  bool network_read = false;
};

// The JSON path being read, for the error that names a field of the wrong type.
class Path {
 public:
  explicit Path(std::string& p, std::string_view key) : p_(p), len_(p.size()) {
    if (!p_.empty() && !key.starts_with('[')) p_ += '.';
    p_ += key;
  }
  ~Path() { p_.resize(len_); }
  Path(const Path&) = delete;
  Path& operator=(const Path&) = delete;

 private:
  std::string& p_;
  std::size_t len_;
};

struct WrongType {
  std::string path;
  std::string what;
};

class Reader {
 public:
  std::string path;

  std::optional<std::string> opt_string(od::value v) {
    if (v.is_null()) return std::nullopt;
    std::string_view s;
    if (v.get_string().get(s)) throw WrongType{path, "a string or null"};
    return std::string(s);
  }
  std::optional<std::int64_t> opt_int(od::value v) {
    if (v.is_null()) return std::nullopt;
    std::int64_t i = 0;
    if (v.get_int64().get(i)) throw WrongType{path, "an integer or null"};
    return i;
  }
  bool boolean(od::value v) {
    bool b = false;
    if (v.get_bool().get(b)) throw WrongType{path, "true or false"};
    return b;
  }
  // Calls f(key, value) for each field; null is an empty object (a source
  // that did not answer: nvidia_smi, cuda_driver_api).
  template <class F>
  void object(od::value v, F f) {
    if (v.is_null()) return;
    od::object o;
    if (v.get_object().get(o)) throw WrongType{path, "an object or null"};
    for (auto field : o) {
      std::string_view key = field.unescaped_key();
      Path p(path, key);
      f(key, field.value());
    }
  }
  template <class F>
  void array(od::value v, F f) {
    if (v.is_null()) return;
    od::array a;
    if (v.get_array().get(a)) throw WrongType{path, "an array or null"};
    std::size_t i = 0;
    for (auto element : a) {
      std::string index = "[";
      index += std::to_string(i++);
      index += ']';
      Path p(path, index);
      f(element.value());
    }
  }
};

void read_pci(Reader& r, od::value v, Scan& s) {
  r.array(v, [&](od::value dev) {
    bool gpu = false;
    std::optional<std::string> name, vendor_id, device_id, width;
    r.object(dev, [&](std::string_view k, od::value x) {
      if (k == "kind") gpu = r.opt_string(x) == "gpu";
      else if (k == "name") name = r.opt_string(x);
      else if (k == "vendor_id") vendor_id = r.opt_string(x);
      else if (k == "device_id") device_id = r.opt_string(x);
      else if (k == "link")
        r.object(x, [&](std::string_view lk, od::value lx) {
          if (lk == "current_width")
            if (auto w = r.opt_int(lx)) width = lanes_text(*w);
        });
    });
    if (!gpu) return;
    ++s.pci.count;
    // As the lock names a GPU that only PCI saw: its name, else vendor:device.
    s.pci.models.add(name ? *name : vendor_id.value_or("?") + ":" + device_id.value_or("?"));
    if (width) s.pci.widths.add(*width);
  });
}

void read_driver(Reader& r, od::value v, Scan& s) {
  r.object(v, [&](std::string_view k, od::value x) {
    if (k == "kernel_module") {
      r.object(x, [&](std::string_view mk, od::value mx) {
        if (mk == "version") s.kernel_module = r.opt_string(mx);
      });
    } else if (k == "libcuda") {
      r.object(x, [&](std::string_view lk, od::value lx) {
        if (lk == "version") s.libcuda = r.opt_string(lx);
      });
    } else if (k == "gpus") {
      r.array(x, [&](od::value g) {
        ++s.proc.count;
        r.object(g, [&](std::string_view gk, od::value gx) {
          if (gk == "model") {
            if (auto m = r.opt_string(gx)) s.proc.models.add(*m);
          } else if (gk == "vbios") {
            if (auto b = r.opt_string(gx)) s.proc.vbios.add(*b);
          }
        });
      });
    }
  });
}

void read_cuda_api(Reader& r, od::value v, Scan& s) {
  r.object(v, [&](std::string_view k, od::value x) {
    if (k == "driver_version") s.cuda_api = r.opt_string(x);
    else if (k == "devices")
      r.array(x, [&](od::value d) {
        ++s.cuda.count;
        r.object(d, [&](std::string_view dk, od::value dx) {
          if (dk == "name")
            if (auto n = r.opt_string(dx)) s.cuda.models.add(*n);
        });
      });
  });
}

void read_smi_gpu(Reader& r, od::value g, Scan& s) {
  r.object(g, [&](std::string_view k, od::value x) {
    if (k == "product_name") {
      if (auto n = r.opt_string(x)) s.smi.models.add(*n);
    } else if (k == "vbios") {
      if (auto b = r.opt_string(x)) s.smi.vbios.add(*b);
    } else if (k == "ecc_mode") {
      r.object(x, [&](std::string_view ek, od::value ex) {
        if (ek == "current")
          if (auto m = r.opt_string(ex)) s.smi.ecc.add(*m);
      });
    } else if (k == "pcie") {
      r.object(x, [&](std::string_view pk, od::value px) {
        if (pk == "width_current")
          if (auto w = r.opt_int(px)) s.smi.widths.add(lanes_text(*w));
      });
    }
  });
}

void read_smi(Reader& r, od::value v, Scan& s) {
  r.object(v, [&](std::string_view k, od::value x) {
    if (k == "driver_version") s.smi_driver = r.opt_string(x);
    else if (k == "cuda_version") s.smi_cuda = r.opt_string(x);
    else if (k == "gpus")
      r.array(x, [&](od::value g) {
        ++s.smi.count;
        read_smi_gpu(r, g, s);
      });
  });
}

// name and version of a library, a framework or a toolkit entry.
struct Named {
  std::optional<std::string> name, version;
  bool active = false;
};

Named read_named(Reader& r, od::value v) {
  Named n;
  r.object(v, [&](std::string_view k, od::value x) {
    if (k == "name") n.name = r.opt_string(x);
    else if (k == "version") n.version = r.opt_string(x);
    else if (k == "active") n.active = r.boolean(x);
  });
  return n;
}

void read_software(Reader& r, od::value v, Scan& s) {
  r.object(v, [&](std::string_view k, od::value x) {
    if (k == "cuda_toolkits") {
      r.array(x, [&](od::value t) {
        if (Named n = read_named(r, t); n.active && n.version && !s.toolkit) s.toolkit = n.version;
      });
    } else if (k == "libraries") {
      r.array(x, [&](od::value l) {
        Named n = read_named(r, l);
        if (!n.name || !n.version) return;
        if (*n.name == "cudnn") s.cudnn.add(*n.version);
        else if (*n.name == "nccl") s.nccl.add(*n.version);
      });
    } else if (k == "python") {
      r.array(x, [&](od::value env) {
        r.object(env, [&](std::string_view ek, od::value ex) {
          if (ek != "frameworks") return;
          r.array(ex, [&](od::value fw) {
            if (Named n = read_named(r, fw); n.name == "torch" && n.version) s.torch.add(*n.version);
          });
        });
      });
    }
  });
}

void read_network(Reader& r, od::value v, Scan& s) {
  s.network_read = !v.is_null();
  auto& n = s.network;
  r.object(v, [&](std::string_view k, od::value x) {
    if (k == "read") n.read = r.boolean(x);
    else if (k == "peermem") n.peermem = r.opt_string(x);
    else if (k == "ofed_version") n.ofed_version = r.opt_string(x);
    else if (k == "efa_version") n.efa_version = r.opt_string(x);
    else if (k == "hpcx_version") n.hpcx_version = r.opt_string(x);
    else if (k == "nccl_net_plugin")
      r.object(x, [&](std::string_view pk, od::value px) {
        if (pk == "path") n.nccl_net_plugin = NcclPlugin{"", r.opt_string(px).value_or("?"), ""};
      });
    else if (k == "ib")
      r.array(x, [&](od::value d) {
        IbDevice dev;
        r.object(d, [&](std::string_view dk, od::value dx) {
          if (dk == "name") dev.name = r.opt_string(dx).value_or("");
          else if (dk == "fw_ver") dev.fw_ver = r.opt_string(dx);
          else if (dk == "driver") dev.driver = r.opt_string(dx);
          else if (dk == "ports")
            r.array(dx, [&](od::value p) {
              IbPort port;
              r.object(p, [&](std::string_view pk, od::value px) {
                if (pk == "state") port.state = r.opt_string(px);
                else if (pk == "rate") port.rate = r.opt_string(px);
              });
              dev.ports.push_back(std::move(port));
            });
        });
        n.ib.push_back(std::move(dev));
      });
  });
}

// One key of a facts object (gpucheck.facts/1); the others are skipped.
void read_facts_key(Reader& r, std::string_view key, od::value v, Scan& s) {
  if (key == "pci") read_pci(r, v, s);
  else if (key == "nvidia_driver") read_driver(r, v, s);
  else if (key == "cuda_driver_api") read_cuda_api(r, v, s);
  else if (key == "nvidia_smi") read_smi(r, v, s);
  else if (key == "software") read_software(r, v, s);
  else if (key == "network") read_network(r, v, s);
}

template <class T>
std::optional<T> first_of(std::initializer_list<const std::optional<T>*> sources) {
  for (const auto* s : sources)
    if (*s) return *s;
  return std::nullopt;
}

// The lock's precedence (src/lock/from_facts.cpp): the most direct source
// that saw any GPU names them all.
const GpuSource* gpu_source(const Scan& s) {
  for (const GpuSource* g : {&s.smi, &s.cuda, &s.proc, &s.pci})
    if (g->count) return g;
  return nullptr;
}

void set_fields(const Scan& s, NodeReport& n) {
  auto set = [&](SkewField f, std::optional<std::string> v) { n.fields[index_of(f)] = std::move(v); };
  set(SkewField::driver, first_of<std::string>({&s.kernel_module, &s.smi_driver, &s.libcuda}));
  set(SkewField::cuda_driver, first_of<std::string>({&s.cuda_api, &s.smi_cuda}));
  set(SkewField::cuda_toolkit, s.toolkit);
  set(SkewField::cudnn, s.cudnn.joined());
  set(SkewField::nccl, s.nccl.joined());
  set(SkewField::torch, s.torch.joined());
  if (const GpuSource* g = gpu_source(s)) {
    set(SkewField::gpu_model, g->models.joined());
    set(SkewField::gpu_count, std::to_string(g->count));
  } else {
    set(SkewField::gpu_count, "0");  // every source answered and none saw a GPU
  }
  set(SkewField::vbios, s.smi.vbios.v.empty() ? s.proc.vbios.joined() : s.smi.vbios.joined());
  set(SkewField::pcie_width, s.smi.widths.v.empty() ? s.pci.widths.joined() : s.smi.widths.joined());
  set(SkewField::ecc_mode, s.smi.ecc.joined());
  const NetworkSummary net = summarize_network(s.network, s.network_read);
  set(SkewField::nccl_net_plugin, net.nccl_net_plugin);
  set(SkewField::ofed, net.ofed);
  set(SkewField::rdma_firmware, net.rdma_firmware);
  set(SkewField::rdma_rate, net.rdma_rate);
  set(SkewField::gpudirect_rdma, net.gpudirect_rdma);
  set(SkewField::hpcx, net.hpcx);
  set(SkewField::efa_driver, net.efa_driver);
}

void read_finding(Reader& r, od::value v, NodeReport& n) {
  NodeFinding f;
  r.object(v, [&](std::string_view k, od::value x) {
    if (k == "rule") f.rule = r.opt_string(x).value_or("");
    else if (k == "title") f.title = r.opt_string(x).value_or("");
    else if (k == "severity") f.severity = r.opt_string(x).value_or("");
  });
  if (f.severity != "error" && f.severity != "warning") return;  // info never fails a node
  if (f.rule.empty()) throw WrongType{r.path, "a finding with a rule id"};
  n.findings.push_back(std::move(f));
}

constexpr std::string_view kCheckSchema = "gpucheck.check/1";
constexpr std::string_view kFactsSchema = "gpucheck.facts/1";

Result<NodeReport> read(od::parser& parser, std::string& text, const std::string& name) {
  auto bad = [&](std::string detail) { return Problem{Reason::malformed, name, std::move(detail)}; };
  // The parser may read up to SIMDJSON_PADDING bytes past the end.
  const std::size_t length = text.size();
  text.append(simdjson::SIMDJSON_PADDING, '\0');
  od::document doc;
  if (auto e = parser.iterate(simdjson::padded_string_view(text.data(), length, text.size())).get(doc)) return bad(std::string("not JSON: ") + simdjson::error_message(e));
  od::object top;
  if (auto e = doc.get_object().get(top))
    return bad(e == simdjson::INCORRECT_TYPE ? "not a JSON object, so not a gpucheck report"
                                             : std::string("not JSON: ") + simdjson::error_message(e));
  NodeReport n;
  Scan top_scan, facts_scan;
  std::optional<std::string> schema, verdict;
  bool has_facts = false;
  Reader r;
  for (auto field : top) {
    std::string_view key = field.unescaped_key();
    Path p(r.path, key);
    od::value v = field.value();
    if (key == "schema") schema = r.opt_string(v);
    else if (key == "verdict") verdict = r.opt_string(v);
    else if (key == "findings") r.array(v, [&](od::value f) { read_finding(r, f, n); });
    else if (key == "facts") {
      has_facts = true;
      r.object(v, [&](std::string_view k, od::value x) { read_facts_key(r, k, x, facts_scan); });
    } else read_facts_key(r, key, v, top_scan);
  }
  // Past the object the parser is out of bounds; a location means more bytes.
  if (const char* rest = nullptr; !doc.current_location().get(rest)) return bad("not JSON: more after the report's closing brace");
  if (schema == kCheckSchema) {
    if (!has_facts) return bad("a gpucheck.check/1 report without its \"facts\"");
    n.kind = NodeKind::check;
    // The verdict as check wrote it (it honours --strict; an incomplete
    // paste proves nothing, so only "pass" passes); a report without one
    // fails on an error finding.
    n.failed = verdict ? *verdict != "pass"
                       : std::any_of(n.findings.begin(), n.findings.end(), [](auto& f) { return f.severity == "error"; });
    set_fields(facts_scan, n);
  } else if (schema == kFactsSchema) {
    n.kind = NodeKind::probe;
    n.findings.clear();
    set_fields(top_scan, n);
  } else {
    return bad(schema ? "schema \"" + *schema + "\" is not a gpucheck check or probe report (" + std::string(kCheckSchema) +
                            ", " + std::string(kFactsSchema) + ")"
                      : "no \"schema\": not a gpucheck check or probe report");
  }
  return n;
}

}  // namespace

Result<NodeReport> read_node_report(std::string text, const std::string& name) {
  // One parser per thread: it keeps its buffers between reports.
  thread_local od::parser parser;
  try {
    return read(parser, text, name);
  } catch (const WrongType& w) {
    return Problem{Reason::malformed, name, w.path + ": expected " + w.what};
  } catch (const simdjson::simdjson_error& e) {
    return Problem{Reason::malformed, name, std::string("not JSON: ") + e.what()};
  }
}

}  // namespace gpucheck
