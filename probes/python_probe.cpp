// Python environments a job would use and what is installed in them, read
// from files: dist-info, egg-info and conda-meta metadata, the pins between
// them, and the frameworks' own build files (torch/version.py, …). The
// sys.path comes from files too (python_sys_path.hpp); the interpreter is
// run, once and with a deadline, only where they do not settle it; with
// --deep, probes/deep_probe.py imports the frameworks inside it.
#include <algorithm>
#include <any>
#include <set>
#include <unordered_map>

#include "parse/conda_build.hpp"
#include "parse/conda_meta.hpp"
#include "parse/deep_probe_answer.hpp"
#include "parse/framework_build.hpp"
#include "parse/python_core_metadata.hpp"
#include "parse/python_marker.hpp"
#include "parse/python_requirement.hpp"
#include "parse/python_version.hpp"
#include "parse/pyvenv_cfg.hpp"
#include "parse/sys_path_answer.hpp"
#include "probe.hpp"
#include "python_sys_path.hpp"
#include "util/embedded_file.hpp"
#include "util/parallel.hpp"
#include "util/paths.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace embedded {
extern const File kDeepProbe[];  // probes/deep_probe.py (probes/CMakeLists.txt)
}

namespace {

constexpr const char* kSubject = "python";

// METADATA holds the long description after its headers; torch's is 30 KB.
// The headers we need come first, so a bounded read is enough.
constexpr std::size_t kMaxMetadataBytes = 1u << 20;
// Only the header block of a METADATA file is read; the long description
// after it is most of the file (1 MB for this host's 106 distributions).
constexpr std::size_t kMetadataHeadBytes = 16 * 1024;

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string first_line(const std::string& s) {
  for (auto l : split_lines(s))
    if (!trim(l).empty()) return std::string(trim(l));
  return {};
}

struct Candidate {
  std::string path;
  std::string via;
};

// An interpreter file inside a directory: python3, else python.
std::optional<std::string> interpreter_in(const Host& h, const std::string& bin) {
  for (const char* name : {"/python3", "/python"})
    if (h.exists(bin + name)) return bin + name;
  return std::nullopt;
}

// pyenv's shims (`$PYENV_ROOT/shims/python3`) are shell scripts that start
// pyenv to pick a version: ~300 ms per run, most of a default probe. The
// choice is made here from the same files instead ($PYENV_VERSION, else
// $PYENV_ROOT/version; a directory's .python-version is not seen, as the
// probe has no working directory), and the chosen interpreter is run.
std::optional<std::string> resolve_pyenv_shim(const Host& h, const std::string& shim) {
  auto head = h.read_range(shim, 0, 1024);
  if (!head || !starts_with(*head, "#!") || head->find("pyenv") == std::string::npos ||
      head->find(" exec ") == std::string::npos)
    return std::nullopt;
  std::string root = h.env("PYENV_ROOT").value_or("");
  if (root.empty()) {
    const std::string key = "export PYENV_ROOT=\"";
    if (auto k = head->find(key); k != std::string::npos) {
      const auto end = head->find('"', k + key.size());
      if (end != std::string::npos) root = head->substr(k + key.size(), end - k - key.size());
    }
  }
  if (root.empty()) root = dir_of(dir_of(shim));
  std::string version;
  if (auto v = h.env("PYENV_VERSION"); v && !v->empty()) version = std::string(split(*v, ':')[0]);
  else if (auto f = h.read_file(root + "/version", 4096); f && is_text(*f))
    for (auto line : split_lines(*f))
      if (!trim(line).empty() && trim(line)[0] != '#') {
        version = std::string(trim(line));
        break;
      }
  if (version.empty() || version == "system") return std::nullopt;  // run the shim itself
  const std::string target = root + "/versions/" + version + "/bin/" + base_of(shim);
  if (!h.exists(target)) return std::nullopt;
  return target;
}

std::vector<Candidate> candidates(ProbeContext& ctx) {
  const Host& h = ctx.host();
  std::vector<Candidate> out;
  // Every python3 on PATH: the first is what `python3` runs; the later ones
  // are what a script with an absolute shebang (#!/usr/bin/python3) runs.
  if (auto path = h.env("PATH")) {
    bool first = true;
    std::set<std::string> seen_dirs;
    for (auto dir : split(*path, ':')) {
      if (dir.empty() || dir[0] != '/' || !seen_dirs.insert(std::string(dir)).second) continue;
      const std::string p = std::string(dir) + "/python3";
      if (!h.exists(p)) continue;
      std::string via = first ? "PATH" : "PATH (not first)";
      if (auto real = resolve_pyenv_shim(h, p)) out.push_back({*real, via + " (pyenv shim " + p + ")"});
      else out.push_back({p, via});
      first = false;
    }
  }
  for (const char* var : {"VIRTUAL_ENV", "CONDA_PREFIX"}) {
    auto v = h.env(var);
    if (!v || v->empty()) continue;
    if (auto p = interpreter_in(h, *v + "/bin")) out.push_back({*p, var});
    else ctx.note(kSubject, std::string("$") + var + " interpreter", Problem{Reason::absent, *v + "/bin/python3", "no python3 or python in $" + std::string(var) + "/bin"});
  }
  for (auto& p : ctx.options().pythons) {
    std::string path = p;
    // A directory is taken as an environment's prefix.
    if (auto entries = h.list_dir(p); entries) {
      if (auto in = interpreter_in(h, p + "/bin")) path = *in;
    }
    out.push_back({path, "--python"});
  }
  return out;
}

struct EnvWork {
  PythonEnv env;
  std::string prefix;  // sys.prefix, or the guessed one
  std::string identity;
  std::optional<InterpreterAnswer> answer;
  bool from_files = false;  // answer worked out from files, no interpreter run
};

// venv: pyvenv.cfg beside the interpreter's bin/ (PEP 405); conda: conda-meta/.
std::string kind_of(const Host& h, const std::string& prefix, const std::string& bin) {
  if (h.exists(prefix + "/pyvenv.cfg") || h.exists(bin + "/pyvenv.cfg")) return "venv";
  if (h.exists(prefix + "/conda-meta")) return "conda";
  return "system";
}

// The "X.Y" of an interpreter without running it.
std::vector<std::string> guess_xy(const Host& h, const std::string& interp, const std::string& prefix,
                                  const std::map<std::string, std::string>& cfg) {
  std::vector<std::string> out;
  auto add = [&](const std::string& v) {
    auto parts = split(v, '.');
    if (parts.size() >= 2 && parse_int(parts[0]) && parse_int(parts[1])) {
      std::string xy = std::string(parts[0]) + "." + std::string(parts[1]);
      if (std::find(out.begin(), out.end(), xy) == out.end()) out.push_back(xy);
    }
  };
  for (const char* k : {"version", "version_info"})
    if (auto it = cfg.find(k); it != cfg.end()) add(it->second);
  for (const std::string& name : {base_of(interp), base_of(h.real_path(interp) ? *h.real_path(interp) : interp)})
    if (starts_with(name, "python") && name.size() > 6) add(name.substr(6));
  if (out.empty())
    if (auto entries = h.list_dir(prefix + "/lib"))
      for (auto& e : *entries)
        if (e.type == EntryType::directory && starts_with(e.name, "python3.")) add(e.name.substr(6));
  return out;
}

std::vector<std::string> conventional_paths(const Host& h, const std::string& prefix, const std::vector<std::string>& xys) {
  std::vector<std::string> dirs;
  for (auto& xy : xys) {
    dirs.push_back(prefix + "/lib/python" + xy + "/site-packages");
    dirs.push_back(prefix + "/lib64/python" + xy + "/site-packages");
    dirs.push_back(prefix + "/local/lib/python" + xy + "/dist-packages");  // Debian: pip as root
    dirs.push_back(prefix + "/lib/python" + xy + "/dist-packages");
  }
  dirs.push_back(prefix + "/lib/python3/dist-packages");  // Debian's python3-* packages
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (auto& d : dirs) {
    auto real = h.real_path(d);
    if (!real) continue;
    if (seen.insert(*real).second) out.push_back(d);
  }
  return out;
}

Command sys_path_question(ProbeContext& ctx, const std::string& interpreter) {
  return Command{interpreter, {"-S", "-c", kSysPathQuestion}, ctx.deadline().cap(ctx.options().command_timeout)};
}

void ask_sys_path(ProbeContext& ctx, EnvWork& w) {
  auto& e = w.env;
  const Command cmd = sys_path_question(ctx, e.interpreter);
  auto run = ctx.run(cmd);
  std::optional<Problem> why;
  if (!run) {
    why = run.problem();
    why->where = e.interpreter + " -S -c <sys.path question>";
  } else if (run->timed_out) {
    why = Problem{Reason::timed_out, e.interpreter, "killed after " + std::to_string(cmd.timeout.count()) + " ms"};
  } else if (!run->succeeded()) {
    const std::string msg = first_line(run->err);
    why = Problem{Reason::failed, e.interpreter, run->status_text() + (msg.empty() ? "" : ": " + msg)};
  } else if (auto a = parse_interpreter_answer(run->out); !a) {
    why = Problem{Reason::malformed, e.interpreter, a.problem().detail};
  } else {
    w.answer = *a;
  }
  if (why) {
    why->detail += "; using the conventional site-packages locations instead";
    ctx.note(kSubject, "sys.path of " + e.interpreter, *why);
  }
}

// Reads one *.dist-info / *.egg-info entry of a site directory; problems go
// to `notes` (this runs on worker threads, which must not touch the context).
std::optional<Distribution> read_metadata(const Host& h, const std::string& site, const DirEntry& entry,
                                          std::vector<Note>& notes) {
  auto note = [&](std::string item, Problem p) { notes.push_back({kSubject, std::move(item), std::move(p)}); };
  const std::string where = site + "/" + entry.name;
  std::string file;
  bool egg = ends_with(entry.name, ".egg-info");
  if (!egg) file = where + "/METADATA";
  else file = entry.type == EntryType::directory ? where + "/PKG-INFO" : where;
  auto text = h.read_file(file, kMetadataHeadBytes);
  if (text && text->size() == kMetadataHeadBytes && core_metadata_headers_end(*text) == std::string::npos)
    text = h.read_file(file, kMaxMetadataBytes);
  if (!text) {
    note("metadata of " + entry.name, text.problem());
    return std::nullopt;
  }
  auto meta = parse_core_metadata(*text);
  if (!meta) {
    note("metadata of " + entry.name, Problem{Reason::malformed, file, meta.problem().detail});
    return std::nullopt;
  }
  Distribution d;
  d.name = meta->name;
  d.version = meta->version;
  d.source = file;
  d.installer = "pip";
  std::vector<std::string> reqs = meta->requires_dist;
  if (egg && entry.type == EntryType::directory && reqs.empty()) {
    // setuptools keeps an egg's requirements in requires.txt, not in PKG-INFO.
    if (auto r = h.read_file(where + "/requires.txt", kMaxMetadataBytes); r && is_text(*r)) reqs = parse_requires_txt(*r);
  }
  for (auto& line : reqs) {
    auto pr = parse_requirement(line);
    if (!pr) {
      note("requirement of " + d.name, Problem{Reason::malformed, file, pr.problem().detail});
      continue;
    }
    Requirement r;
    r.name = pr->name;
    r.specifier = pr->url ? "@ " + *pr->url : pr->specifier;
    r.marker = pr->marker;
    d.requires_dist.push_back(std::move(r));
  }
  return d;
}

struct MetadataAt {
  std::string site;
  DirEntry entry;
};

struct MetadataRead {
  const std::string* site = nullptr;
  std::optional<Distribution> dist;
  std::vector<Note> notes;
};

// An environment holds hundreds to thousands of distributions, each a small
// file to open, read and parse (about 20 us): they are read on every core,
// in order; a thread costs about what eight of them do.
std::vector<MetadataRead> read_all_metadata(const Host& h, const std::vector<MetadataAt>& found) {
  std::vector<MetadataRead> out(found.size());
  parallel_for(found.size(), 8, [&](std::size_t i) {
    out[i].site = &found[i].site;
    out[i].dist = read_metadata(h, found[i].site, found[i].entry, out[i].notes);
  }, 8);
  return out;
}

void read_conda_meta(ProbeContext& ctx, const std::string& prefix, std::vector<Distribution>& out) {
  const Host& h = ctx.host();
  const std::string dir = prefix + "/conda-meta";
  auto entries = h.list_dir(dir);
  if (!entries) {
    if (entries.problem().reason != Reason::absent) ctx.note(kSubject, "conda-meta of " + prefix, entries.problem());
    return;
  }
  for (auto& e : *entries) {
    if (e.type != EntryType::file || !ends_with(e.name, ".json")) continue;
    const std::string file = dir + "/" + e.name;
    auto text = h.read_file(file);
    if (!text) {
      ctx.note(kSubject, "conda record " + e.name, text.problem());
      continue;
    }
    auto rec = parse_conda_meta(*text);
    if (!rec) {
      ctx.note(kSubject, "conda record " + e.name, Problem{Reason::malformed, file, rec.problem().detail});
      continue;
    }
    Distribution d;
    d.name = rec->name;
    d.version = rec->version;
    d.source = file;
    d.installer = "conda";
    for (auto& dep : rec->depends) {
      auto cd = parse_conda_depend(dep);
      if (cd.name.empty()) continue;
      Requirement r;
      r.name = normalize_dist_name(cd.name);
      r.specifier = cd.specifier.value_or(cd.raw);
      d.requires_dist.push_back(std::move(r));
    }
    out.push_back(std::move(d));
  }
}

// Judges every requirement against what the same environment has installed.
void judge_requirements(PythonEnv& e, const MarkerEnv& menv) {
  // First on sys.path wins, as for an import; pip metadata before conda's.
  std::unordered_map<std::string, const std::string*> installed;
  installed.reserve(e.distributions.size() * 2);
  for (auto& d : e.distributions) installed.emplace(normalize_dist_name(d.name), &d.version);
  // Specifiers repeat across packages (">=1.0"); parse each text once.
  std::unordered_map<std::string, std::optional<Pep440Specifier>> specs;
  std::unordered_map<std::string, std::optional<bool>> markers;
  std::unordered_map<std::string, std::optional<Pep440Version>> versions;
  for (auto& d : e.distributions) {
    for (auto& r : d.requires_dist) {
      r.applies = true;
      if (r.marker) {
        auto mit = markers.find(*r.marker);
        if (mit == markers.end()) mit = markers.emplace(*r.marker, evaluate_marker(*r.marker, menv)).first;
        r.applies = mit->second;
      }
      auto it = installed.find(r.name);
      if (it != installed.end()) r.installed = *it->second;
      if (!r.installed) continue;  // not installed: unknown, not "unsatisfied"
      if (r.applies != true) continue;  // not required here, or unknown
      if (starts_with(r.specifier, "@")) continue;  // a URL requirement: no version to judge
      auto sit = specs.find(r.specifier);
      if (sit == specs.end()) sit = specs.emplace(r.specifier, Pep440Specifier::parse(r.specifier)).first;
      if (!sit->second) continue;
      auto vit = versions.find(*r.installed);
      if (vit == versions.end()) vit = versions.emplace(*r.installed, Pep440Version::parse(*r.installed)).first;
      const auto& v = vit->second;
      if (!v) {
        bool only_identity = !sit->second->clauses().empty();
        for (auto& c : sit->second->clauses()) only_identity = only_identity && c.op == "===";
        if (only_identity || sit->second->clauses().empty()) r.satisfied = sit->second->contains(std::string_view(*r.installed));
        continue;
      }
      r.satisfied = sit->second->contains(*v);
    }
  }
}

// --- frameworks ---

// A framework's build file (parse/framework_build.hpp), if it can be read as text.
std::optional<std::string> read_build_file(ProbeContext& ctx, const std::string& path, bool note_absent) {
  auto text = ctx.host().read_file(path, 1 << 20);
  if (!text) {
    if (note_absent || text.problem().reason != Reason::absent) ctx.note(kSubject, "build facts " + path, text.problem());
    return std::nullopt;
  }
  if (!is_text(*text)) {
    ctx.note(kSubject, "build facts " + path, Problem{Reason::malformed, path, "holds binary data, not text"});
    return std::nullopt;
  }
  return std::move(text.value());
}

FrameworkBuild recognise(ProbeContext& ctx, const std::string& n, const Distribution& d, const std::string& site) {
  FrameworkBuild f = framework_from_name(n, d.version);
  f.source = d.source;
  const FrameworkBuildFile* file = framework_build_file(n);
  // torch from a conda record whose torch/version.py is on no site directory: nothing to read.
  if (file && !(n == "torch" && site.empty())) {
    const std::string path = site + std::string(file->path);
    if (auto text = read_build_file(ctx, path, file->always_there)) {
      f.source = path;
      file->read(*text, f);
    }
  }
  add_local_tag_facts(f);
  return f;
}

void find_frameworks(ProbeContext& ctx, PythonEnv& e, const std::vector<std::string>& sites,
                     const std::vector<std::string>& dist_site) {
  std::set<std::string> seen;
  for (std::size_t i = 0; i < e.distributions.size(); ++i) {
    const auto& d = e.distributions[i];
    if (d.installer != "pip") continue;
    const std::string n = normalize_dist_name(d.name);
    if (!is_framework(n) || !seen.insert(n).second) continue;  // the first on sys.path is the one imported
    e.frameworks.push_back(recognise(ctx, n, d, dist_site[i]));
  }
  // conda records: pytorch (the conda name of torch) when pip metadata did not show it.
  for (auto& d : e.distributions) {
    if (d.installer != "conda") continue;
    std::string n = normalize_dist_name(d.name);
    if (n == "pytorch") n = "torch";
    if (!is_framework(n)) continue;
    const CondaBuild build = parse_conda_build(conda_build_of_record_file(base_of(d.source)));
    auto it = std::find_if(e.frameworks.begin(), e.frameworks.end(), [&](auto& f) { return f.name == n; });
    if (it != e.frameworks.end()) {
      add_conda_build_facts(*it, build);
      continue;
    }
    // The framework's files are in the environment's site-packages.
    std::string site;
    const std::string probe_file = n == "torch" ? "/torch/version.py" : "";
    if (!probe_file.empty())
      for (auto& s : sites)
        if (ctx.host().exists(s + probe_file)) {
          site = s;
          break;
        }
    FrameworkBuild f = recognise(ctx, n, d, site);
    add_conda_build_facts(f, build);
    e.frameworks.push_back(std::move(f));
    seen.insert(n);
  }
}

void deep_probe(ProbeContext& ctx, PythonEnv& e) {
  bool worth_it = false;
  for (auto& f : e.frameworks)
    worth_it = worth_it || f.name == "torch" || matches_family(f.name, "tensorflow") || f.name == "jax";
  if (!worth_it) return;
  DeepProbeFacts deep;
  // `python -c SCRIPT`: nothing is written to the machine (no temporary file
  // to leave behind or race on), and the command's key stays the same for a
  // given gpucheck build, so a snapshot replays it.
  Command cmd{e.interpreter, {"-c", embedded::kDeepProbe[0].text}, ctx.deadline().cap(ctx.options().deep_timeout)};
  auto run = ctx.host().run(cmd);
  std::optional<Problem> why;
  if (!run) {
    why = run.problem();
    why->where = e.interpreter + " -c <deep_probe.py>";
  } else if (run->timed_out) {
    why = Problem{Reason::timed_out, e.interpreter, "the deep probe was killed after " + std::to_string(cmd.timeout.count()) + " ms"};
  } else if (!run->succeeded()) {
    const std::string msg = first_line(run->err);
    why = Problem{Reason::failed, e.interpreter, "the deep probe failed: " + run->status_text() + (msg.empty() ? "" : ": " + msg)};
  } else if (auto parsed = parse_deep_answer(run->out); !parsed) {
    why = Problem{Reason::malformed, e.interpreter, parsed.problem().detail};
  } else {
    deep = *parsed;
  }
  if (why) {
    deep.error = std::string(to_string(why->reason)) + ": " + why->detail;
    ctx.note(kSubject, "deep probe of " + e.interpreter, *why);
  }
  e.deep = std::move(deep);
}

MarkerEnv marker_env(const Host& h, const std::optional<std::string>& version) {
  MarkerEnv m;
  if (auto u = h.uname()) {
    if (!u->sysname.empty()) {
      m.values["platform_system"] = u->sysname;
      if (u->sysname == "Linux") {
        m.values["sys_platform"] = "linux";
        m.values["os_name"] = "posix";
      }
    }
    if (!u->machine.empty()) m.values["platform_machine"] = u->machine;
  }
  if (version) {
    auto parts = split(*version, '.');
    if (parts.size() >= 2) m.values["python_version"] = std::string(parts[0]) + "." + std::string(parts[1]);
    if (parts.size() >= 3) m.values["python_full_version"] = *version;
  }
  return m;
}

// The environments to look at: one per interpreter file, a venv apart from
// the interpreter it links to.
std::vector<EnvWork> discover(ProbeContext& ctx) {
  const Host& h = ctx.host();
  std::vector<EnvWork> envs;
  std::map<std::string, std::size_t> by_identity;  // identity -> index in envs
  for (auto& c : candidates(ctx)) {
    auto real = h.real_path(c.path);
    if (!real) {
      ctx.note(kSubject, "interpreter " + c.path + " (" + c.via + ")", real.problem());
      continue;
    }
    const std::string bin = dir_of(c.path);
    std::string prefix = dir_of(bin);
    if (prefix.empty()) prefix = "/";
    // A venv's interpreter is a link to the base one: the same real file is
    // another environment when a pyvenv.cfg sits beside it.
    const std::string kind = kind_of(h, prefix, bin);
    const std::string identity = *real + "\n" + (kind == "venv" ? prefix : "");
    if (auto it = by_identity.find(identity); it != by_identity.end()) {
      auto& fv = envs[it->second].env.found_via;
      if (std::find(fv.begin(), fv.end(), c.via) == fv.end()) fv.push_back(c.via);
      continue;
    }
    EnvWork w;
    w.env.interpreter = c.path;
    w.env.kind = kind;
    w.env.found_via = {c.via};
    w.prefix = prefix;
    w.identity = identity;
    by_identity[identity] = envs.size();
    envs.push_back(std::move(w));
  }
  return envs;
}

// Settles the environment's sys.path from files where they can; --deep
// runs the interpreter anyway, so there it is asked.
bool needs_interpreter(ProbeContext& ctx, EnvWork& w) {
  if (ctx.options().deep) return true;
  if (!w.from_files)
    if (auto a = sys_path_from_files(ctx.host(), w.env.interpreter)) {
      w.answer = std::move(*a);
      w.from_files = true;
    }
  return !w.from_files;
}

constexpr const char* kProbeName = "python";  // as probe.cpp registers it

// The environments found, with the interpreters started of those whose
// files do not settle sys.path.
std::vector<EnvWork> discover_and_ask(ProbeContext& ctx) {
  std::vector<EnvWork> envs = discover(ctx);
  for (auto& w : envs)
    if (needs_interpreter(ctx, w)) ctx.start(sys_path_question(ctx, w.env.interpreter));
  return envs;
}

}  // namespace

// Starting an interpreter costs 20-200 ms: an environment whose files do
// not settle its sys.path is asked before any probe runs, so the answers
// come while the others read files, and the run waits for the slowest
// start, not for their sum.
void start_python(ProbeContext& ctx) { ctx.handover(kProbeName) = discover_and_ask(ctx); }

void probe_python(ProbeContext& ctx) {
  const Host& h = ctx.host();
  auto* handed = std::any_cast<std::vector<EnvWork>>(&ctx.handover(kProbeName));
  std::vector<EnvWork> envs = handed ? std::move(*handed) : discover_and_ask(ctx);
  std::map<std::string, std::size_t> by_prefix;  // after asking: sys.prefix + executable
  for (auto& w : envs) {
    if (ctx.deadline().expired()) {
      ctx.note(kSubject, "environment " + w.env.interpreter, Problem{Reason::timed_out, w.env.interpreter, "skipped: the run's --timeout was reached"});
      continue;
    }
    auto& e = w.env;
    if (!w.from_files) ask_sys_path(ctx, w);
    const std::string bin = dir_of(e.interpreter);
    std::map<std::string, std::string> cfg;
    for (const std::string& p : {w.prefix + "/pyvenv.cfg", bin + "/pyvenv.cfg"})
      if (auto t = h.read_file(p, 1 << 16); t && is_text(*t)) {
        cfg = parse_pyvenv_cfg(*t);
        break;
      }
    if (w.answer) {
      e.version = w.answer->version.empty() ? std::nullopt : std::optional(w.answer->version);
      if (!w.answer->prefix.empty()) {
        w.prefix = w.answer->prefix;
        // Two spellings of one interpreter (a pyenv shim and the file it runs).
        auto exe = h.real_path(w.answer->executable);
        const std::string key = w.prefix + "\n" + (exe ? *exe : w.answer->executable);
        if (auto it = by_prefix.find(key); it != by_prefix.end()) {
          auto& fv = envs[it->second].env.found_via;
          for (auto& v : e.found_via)
            if (std::find(fv.begin(), fv.end(), v) == fv.end()) fv.push_back(v);
          e.interpreter.clear();  // merged: dropped below
          continue;
        }
        by_prefix[key] = static_cast<std::size_t>(&w - envs.data());
        if (h.exists(w.prefix + "/conda-meta")) e.kind = "conda";
        else if (h.exists(w.prefix + "/pyvenv.cfg") || (!w.answer->base_prefix.empty() && w.answer->base_prefix != w.prefix)) e.kind = "venv";
      }
      e.sys_path = w.answer->path;
      e.sys_path_source = w.from_files ? "files" : "interpreter";
    } else {
      auto xys = guess_xy(h, e.interpreter, w.prefix, cfg);
      e.sys_path = conventional_paths(h, w.prefix, xys);
      if (e.kind == "venv" && to_lower(cfg["include-system-site-packages"]) == "true" && cfg.count("home")) {
        for (auto& p : conventional_paths(h, dir_of(cfg["home"]), xys)) e.sys_path.push_back(p);
      }
      e.sys_path_source = "conventional locations";
      if (cfg.count("version")) e.version = cfg["version"];
      else if (cfg.count("version_info")) e.version = cfg["version_info"];
      else if (!xys.empty()) e.version = xys.front();
    }

    // Distributions, in sys.path order.
    std::vector<std::string> dist_site;
    std::vector<MetadataAt> found;
    std::set<std::string> listed;
    for (auto& site : e.sys_path) {
      if (!listed.insert(site).second) continue;
      auto entries = h.list_dir(site);
      if (!entries) {
        // sys.path commonly names a python3X.zip that does not exist.
        if (entries.problem().reason != Reason::absent && !ends_with(site, ".zip"))
          ctx.note(kSubject, "site directory " + site, entries.problem());
        continue;
      }
      for (auto& entry : *entries) {
        if (!ends_with(entry.name, ".dist-info") && !ends_with(entry.name, ".egg-info")) continue;
        if (ends_with(entry.name, ".dist-info") && entry.type != EntryType::directory) continue;
        found.push_back({site, entry});
      }
    }
    for (auto& r : read_all_metadata(h, found)) {
      for (auto& n : r.notes) ctx.note(std::move(n.subject), std::move(n.item), std::move(n.problem));
      if (!r.dist) continue;
      e.distributions.push_back(std::move(*r.dist));
      dist_site.push_back(*r.site);
    }
    read_conda_meta(ctx, w.prefix, e.distributions);
    dist_site.resize(e.distributions.size());
    judge_requirements(e, marker_env(h, e.version));
    find_frameworks(ctx, e, e.sys_path, dist_site);
    if (ctx.options().deep) deep_probe(ctx, e);
  }
  for (auto& w : envs)
    if (!w.env.interpreter.empty()) ctx.facts().software.python.push_back(std::move(w.env));
}

}  // namespace gpucheck
