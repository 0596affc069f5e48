// The order of the calls is the order keys are listed in "allowed keys".
#include "matrix/matrix_sections.hpp"

#include <algorithm>

#include "matrix/gpu_figures.hpp"
#include "util/utf8.hpp"

namespace gpucheck {

namespace mv = matrix_values;

GpuModel read_gpu(ObjectReader& r, std::vector<Problem>& problems) {
  GpuModel g;
  r.string("id", g.id, mv::identifier);
  r.string("name", g.name, mv::non_empty);
  r.string("vendor", g.vendor, mv::vendor);
  r.string_list("pci_ids", g.pci_ids, mv::pci_id, false);
  r.string_list("name_patterns", g.name_patterns, mv::name_pattern, false);
  r.string("architecture", g.architecture, mv::non_empty);
  r.optional_version("compute_capability", g.compute_capability, mv::compute_capability);
  r.optional_string("gfx_target", g.gfx_target, mv::gfx_target);
  r.optional_number("memory_gib", g.memory_gib);
  r.optional_number("bandwidth_gbs", g.bandwidth_gbs);
  r.number_map("tflops", g.tflops, mv::precision);
  r.boolean("data_center", g.data_center);
  r.optional_string("nvlink", g.nvlink, mv::non_empty);
  r.optional_string("note", g.note, mv::non_empty);
  r.string_map("figure_sources", g.figure_sources, mv::gpu_figure, mv::https_url);
  r.sources(g.sources);
  r.reject_unknown_keys();
  // Every figure names the page that states it, and no source stands for
  // a figure the entry does not give (a figure dropped, a name mistyped).
  // Both checks look at what the JSON holds, not only at what was kept: a
  // value rejected for its format is reported once, not again here.
  const auto figures = gpu_figure_names(g);
  for (const auto& f : figures)
    if (!gpu_figure_source(g, f) && !r.has("figure_sources", f.c_str()))
      problems.push_back(Problem{Reason::malformed, r.where("figure_sources"),
                                 "no source for \"" + f + "\": every figure names the page that states it"});
  for (const auto& [f, url] : g.figure_sources) {
    (void)url;
    const bool rate = f.rfind("tflops.", 0) == 0;
    if (!(rate ? r.has("tflops", f.c_str() + 7) : r.has(f.c_str())))
      problems.push_back(Problem{Reason::malformed, r.where("figure_sources") + "/" + f,
                                 "a source for \"" + f + "\", which the entry does not give"});
  }
  return g;
}

GpuId read_gpu_id(ObjectReader& r) {
  GpuId g;
  r.string("pci_id", g.pci_id, mv::pci_id);
  r.string("chip", g.chip, mv::non_empty);
  r.string_list("names", g.names, mv::non_empty, true);
  r.optional_version("compute_capability", g.compute_capability, mv::compute_capability);
  std::optional<std::string> architecture;
  r.optional_string("architecture", architecture, mv::non_empty);
  g.architecture = architecture.value_or("");
  r.string("checked", g.checked, mv::iso_date);
  r.sources(g.sources);
  r.reject_unknown_keys();
  return g;
}

ArchPrecisions read_arch_precisions(ObjectReader& r) {
  ArchPrecisions a;
  r.version("compute_capability", a.compute_capability, mv::compute_capability);
  r.string("architecture", a.architecture, mv::non_empty);
  r.string_list("precisions", a.precisions, mv::precision, true);
  r.sources(a.sources);
  r.reject_unknown_keys();
  return a;
}

CudaRelease read_cuda_release(ObjectReader& r) {
  CudaRelease c;
  r.version("version", c.version, mv::plain_version);
  r.optional_version("min_driver_linux", c.min_driver_linux, mv::plain_version);
  r.optional_string("date", c.date, mv::year_month);
  r.optional_string("checked", c.checked, mv::checked);
  r.optional_string("note", c.note, mv::non_empty);
  r.require_unless("min_driver_linux", c.min_driver_linux.has_value(), "note", c.note.has_value());
  r.sources(c.sources);
  r.reject_unknown_keys();
  return c;
}

CudaFamily read_cuda_family(ObjectReader& r) {
  CudaFamily f;
  r.integer("major", f.major, 1, 99);
  r.optional_version("minor_compat_min_driver", f.minor_compat_min_driver, mv::plain_version);
  r.optional_version("min_compute_capability", f.min_compute_capability, mv::compute_capability);
  r.optional_version("max_compute_capability", f.max_compute_capability, mv::compute_capability);
  r.sources(f.sources);
  r.reject_unknown_keys();
  return f;
}

FrameworkVariant read_framework_variant(ObjectReader& r) {
  FrameworkVariant v;
  r.string("framework", v.framework, mv::identifier);
  r.version("version", v.version, mv::release_version);
  r.defaulted_string("variant", v.variant, mv::variant);
  r.optional_version("cuda", v.cuda, mv::plain_version);
  r.optional_version("rocm", v.rocm, mv::plain_version);
  r.optional_version("cudnn", v.cudnn, mv::plain_version);
  r.version_list("arch_list", v.arch_list, mv::compute_capability, false);
  r.string_list("gfx_targets", v.gfx_targets, mv::gfx_target, false);
  r.optional_version("ptx", v.ptx, mv::compute_capability);
  r.optional_version("min_compute_capability", v.min_compute_capability, mv::compute_capability);
  r.optional_version("max_compute_capability", v.max_compute_capability, mv::compute_capability);
  r.boolean("pypi_default", v.pypi_default);
  r.optional_version("torch", v.torch, mv::plain_version);
  r.optional_string("checked", v.checked, mv::checked);
  r.optional_string("note", v.note, mv::non_empty);
  r.sources(v.sources);
  r.reject_unknown_keys();
  return v;
}

NgcRelease read_ngc_release(ObjectReader& r, std::vector<Problem>& problems) {
  NgcRelease n;
  r.string("framework", n.framework, mv::identifier);
  r.string("tag", n.tag, mv::non_empty);
  r.version("release", n.release, mv::plain_version);
  r.optional_version("cuda", n.cuda, mv::plain_version);
  r.optional_version("cudnn", n.cudnn, mv::plain_version);
  r.optional_version("nccl", n.nccl, mv::plain_version);
  r.optional_version("framework_version", n.framework_version, mv::version_with_suffix);
  r.version("min_driver", n.min_driver, mv::plain_version);
  r.version_list("forward_compat_branches", n.forward_compat_branches, mv::plain_version, false);
  r.optional_version("min_compute_capability", n.min_compute_capability, mv::compute_capability);
  r.sources(n.sources);
  r.reject_unknown_keys();
  // NGC tags are "<release>-<suffix>" ("24.01-py3", "24.01-tf2-py3"): a tag
  // that disagrees with its release is a copy-paste slip.
  const auto& release = n.release.text();
  if (!n.tag.empty() && !release.empty() && n.tag.rfind(release + "-", 0) != 0 && n.tag != release)
    problems.push_back(Problem{Reason::malformed, r.where("tag"),
                               "expected a tag that begins with the release \"" + release + "-\", found " + quoted_value(n.tag)});
  return n;
}

RocmRelease read_rocm_release(ObjectReader& r, std::vector<Problem>& problems) {
  RocmRelease v;
  r.version("version", v.version, mv::plain_version);
  r.string_list("gfx_targets", v.gfx_targets, mv::gfx_target, true);
  r.string_list("deprecated_gfx_targets", v.deprecated_gfx_targets, mv::gfx_target, false);
  r.string_list("os", v.os, mv::os_release, false);
  r.optional_string("note", v.note, mv::non_empty);
  r.sources(v.sources);
  r.reject_unknown_keys();
  // One target, one state: a target in both lists would make the verdict
  // depend on which list a rule reads first.
  for (const auto& t : v.deprecated_gfx_targets)
    if (std::find(v.gfx_targets.begin(), v.gfx_targets.end(), t) != v.gfx_targets.end())
      problems.push_back(Problem{Reason::malformed, r.where("deprecated_gfx_targets"),
                                 "\"" + t + "\" is also in gfx_targets; a target is either supported or deprecated"});
  return v;
}

DriverBranch read_driver_branch(ObjectReader& r, std::vector<Problem>& problems) {
  DriverBranch b;
  r.integer("branch", b.branch, 1, 9999);
  std::string kind;
  r.string("kind", kind, mv::non_empty);
  if (auto k = driver_branch_kind_named(kind)) b.kind = *k;
  else if (!kind.empty())
    problems.push_back(Problem{Reason::malformed, r.where("kind"), "expected one of " + driver_branch_kind_names() + ", found " + quoted_value(kind)});
  r.optional_string("end_of_life", b.end_of_life, mv::year_month);
  r.sources(b.sources);
  r.reject_unknown_keys();
  return b;
}

XidEntry read_xid(ObjectReader& r) {
  XidEntry x;
  r.integer("code", x.code, 1, 9999);
  r.string("name", x.name, mv::non_empty);
  r.string("meaning", x.meaning, mv::non_empty);
  r.string("severity", x.severity, mv::non_empty);
  r.string("action", x.action, mv::non_empty);
  r.optional_string("rule", x.rule, mv::identifier);
  r.optional_string("nvidia_bucket", x.nvidia_bucket, mv::non_empty);
  r.sources(x.sources);
  r.reject_unknown_keys();
  return x;
}

XidRecoveryAction read_xid_recovery_action(ObjectReader& r) {
  XidRecoveryAction a;
  r.string("text", a.text, mv::non_empty);
  r.string("severity", a.severity, mv::non_empty);
  r.string("action", a.action, mv::non_empty);
  r.sources(a.sources);
  r.reject_unknown_keys();
  return a;
}

}  // namespace gpucheck

namespace gpucheck {

KnownModel read_known_model(ObjectReader& r, std::vector<Problem>& problems) {
  KnownModel m;
  r.string("id", m.id, mv::identifier);
  r.string("name", m.name, mv::non_empty);
  r.string("repo", m.repo, mv::hf_repo);
  // config.json's own fields, so that the entry reads against its source line by line.
  if (const auto* config = r.object("config")) {
    auto shape = fit::read_model_shape(*config, r.where("config"));
    if (shape) m.shape = shape.value();
    else problems.push_back(shape.problem());
  }
  r.optional_string("note", m.note, mv::non_empty);
  r.sources(m.sources);
  r.reject_unknown_keys();
  return m;
}

}  // namespace gpucheck
