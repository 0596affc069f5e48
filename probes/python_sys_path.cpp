// The sys.path question and its answer from files. The rules followed are
// CPython's Modules/getpath.py (3.11; the C getpath of 3.6-3.10 gives the
// same paths for these layouts) and Lib/site.py (main, venv, getsitepackages,
// addsitedir, addpackage), plus Debian's patch of getsitepackages.
// python_sys_path_test.cpp holds the answer against every interpreter on
// the build machine, in every layout it can make of them.
#include "python_sys_path.hpp"

#include <algorithm>
#include <set>

#include "parse/c_header.hpp"
#include "parse/dpkg_status.hpp"
#include "parse/pyvenv_cfg.hpp"
#include "util/paths.hpp"
#include "util/strings.hpp"

namespace gpucheck {

// Deliberately without -I: -I drops PYTHONPATH, PYTHONHOME and the user's
// site-packages, all of which a job run from the same environment sees; we
// want the sys.path the job gets. With -S and site.main() called by hand
// (documented for -S), so that the .pth files' path lines are added as at
// start-up but their import lines and sitecustomize are not run: they are
// arbitrary code, which made the question take 75 ms instead of 16 on a host
// whose .pth imports certifi. The answer is NUL-separated bytes (version,
// prefix, base prefix, executable, then sys.path): importing json would cost
// another 10 ms, and fsencode keeps undecodable paths. The "" of -c is taken
// out first, as it is not yet on sys.path when site runs at start-up. No
// variable parts: its text is the snapshot key.
const char* const kSysPathQuestion = R"(import os, site, sys
def pth(sitedir, name, known):
    try:
        with open(os.path.join(sitedir, name), 'rb') as f: lines = f.read().decode('utf-8-sig', 'surrogateescape').splitlines()
    except OSError: return known
    for line in lines:
        if line.startswith(('#', 'import ', 'import\t')) or not line.strip(): continue
        d, case = site.makepath(sitedir, line.rstrip())
        if case not in known and os.path.exists(d): sys.path.append(d); known.add(case)
    return known
if sys.path[:1] == ['']: del sys.path[0]
site.addpackage = pth
site.execsitecustomize = site.execusercustomize = lambda: None
site.main()
v = sys.version_info
sys.stdout.buffer.write(b'\0'.join(map(os.fsencode, ['%d.%d.%d' % v[:3], sys.prefix, getattr(sys, 'base_prefix', sys.prefix), sys.executable or ''] + sys.path))))";

namespace {

Problem unsettled(const std::string& where, std::string why) {
  return Problem{Reason::failed, where, std::move(why)};
}

// posixpath.normpath of an absolute path: "." and ".." resolved lexically,
// repeated and trailing slashes dropped; POSIX keeps exactly two leading
// slashes.
std::string normpath(const std::string& p) {
  const bool two = starts_with(p, "//") && !starts_with(p, "///");
  std::vector<std::string_view> parts;
  for (auto c : split(p, '/')) {
    if (c.empty() || c == ".") continue;
    if (c == "..") {
      if (!parts.empty()) parts.pop_back();
      continue;
    }
    parts.push_back(c);
  }
  if (parts.empty()) return two ? "//" : "/";
  std::string out = two ? "/" : "";
  for (auto c : parts) {
    out += '/';
    out += c;
  }
  return out;
}

// site.makepath: os.path.join then abspath (our paths are absolute already).
std::string join_abs(const std::string& dir, std::string_view name) {
  return normpath(starts_with(name, "/") ? std::string(name) : dir + "/" + std::string(name));
}

// str.splitlines for the separators a .pth file meets: \n, \r\n and \r.
std::vector<std::string> pth_lines(std::string text) {
  if (starts_with(text, "\xEF\xBB\xBF")) text.erase(0, 3);  // utf-8-sig
  std::vector<std::string> out;
  std::string line;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n' || c == '\r') {
      out.push_back(std::move(line));
      line.clear();
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
    } else {
      line += c;
    }
  }
  if (!line.empty()) out.push_back(std::move(line));
  return out;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

std::string rstrip(std::string s) {
  while (!s.empty() && is_space(s.back())) s.pop_back();
  return s;
}

// site.py's flavour of getsitepackages, and whether addsitedir skips
// hidden .pth files (3.13, and the releases it was backported to).
struct SiteRules {
  enum Flavour { upstream, debian } flavour = upstream;
  bool skips_hidden_pth = false;
};

Result<SiteRules> site_rules(const Host& h, const std::string& stdlib) {
  const std::string path = stdlib + "/site.py";
  auto text = h.read_file(path, 1 << 18);
  if (!text) return unsettled(path, "site.py could not be read: " + text.problem().detail);
  const auto has = [&](const char* s) { return text->find(s) != std::string::npos; };
  if (!has("def getsitepackages")) return unsettled(path, "site.py has no getsitepackages()");
  SiteRules r;
  r.skips_hidden_pth = has("not name.startswith(\".\")");
  // Debian and Ubuntu: dist-packages under /usr/local and /usr, site-packages in a venv.
  if (has("dist-packages")) {
    if (!has("\"local/lib\"") || !has("\"python3\",") || !has("is_virtual_environment"))
      return unsettled(path, "site.py knows dist-packages but not as Debian's patch does");
    r.flavour = SiteRules::debian;
  }
  // Fedora and RHEL add /usr/local outside an RPM build: their rules are not followed here.
  if (has("RPM_BUILD_ROOT")) return unsettled(path, "site.py is patched by its distribution");
  return r;
}

// What getpath's prefix search finds: the first directory at or above `dir`
// holding `landmark`.
std::optional<std::string> search_up(const Host& h, std::string dir, const std::string& landmark) {
  for (;;) {
    if (h.exists((dir == "/" ? "" : dir) + "/" + landmark)) return dir;
    if (dir == "/" || dir.empty()) return std::nullopt;
    dir = dir_of(dir);
  }
}

struct Layout {
  std::string xy;                   // "3.11"
  std::string prefix, exec_prefix;  // the base installation's
  std::optional<std::string> venv;  // the venv's directory (sys.prefix after site.venv)
  bool system_site = true;          // site.venv's default without the key
  std::string version;              // the fullest version the files give
};

// Builds sys.path from a layout as getpath and site.main do.
class SysPath {
 public:
  SysPath(const Host& h, SiteRules rules, const Layout& l) : h_(h), rules_(rules), l_(l) {}

  void add(const std::string& entry) {
    const auto p = normpath(entry);
    if (known_.insert(p).second) path_.push_back(p);
  }

  // site.addsitedir: the directory, then its .pth files' path lines.
  void add_site_dir(const std::string& dir) {
    auto entries = h_.list_dir(dir);
    if (!entries) return;  // site.py adds only directories
    add(dir);
    std::vector<std::string> names;
    for (auto& e : *entries)
      if (e.name.size() >= 4 && e.name.compare(e.name.size() - 4, 4, ".pth") == 0 && !(rules_.skips_hidden_pth && e.name[0] == '.'))
        names.push_back(e.name);
    std::sort(names.begin(), names.end());
    for (auto& n : names) {
      auto text = h_.read_file(dir + "/" + n, 1 << 20);
      if (!text) continue;  // as site.py: an unreadable .pth is skipped
      for (auto& line : pth_lines(*text)) {
        if (starts_with(line, "#") || starts_with(line, "import ") || starts_with(line, "import\t") ||
            std::all_of(line.begin(), line.end(), is_space))
          continue;
        const auto d = join_abs(dir, rstrip(line));
        if (!known_.count(d) && h_.exists(d)) add(d);
      }
    }
  }

  // site.getsitepackages for one prefix.
  void add_site_packages(const std::string& prefix) {
    if (!seen_prefixes_.insert(prefix).second) return;
    const bool in_venv = l_.venv.has_value();
    if (rules_.flavour == SiteRules::upstream) {
      add_site_dir(prefix + "/lib/python" + l_.xy + "/site-packages");
      return;
    }
    if (in_venv) add_site_dir(prefix + "/lib/python" + l_.xy + "/site-packages");
    add_site_dir(prefix + "/local/lib/python" + l_.xy + "/dist-packages");
    add_site_dir(prefix + "/lib/python3/dist-packages");
    add_site_dir(prefix + "/lib/python" + l_.xy + "/dist-packages");
  }

  void forget_prefixes() { seen_prefixes_.clear(); }
  std::vector<std::string> take() { return std::move(path_); }

 private:
  const Host& h_;
  SiteRules rules_;
  const Layout& l_;
  std::vector<std::string> path_;
  std::set<std::string> known_;
  std::set<std::string> seen_prefixes_;
};

// "python3.11" (3.7's "python3.7m" too) -> "3.11".
std::optional<std::string> xy_of_name(std::string_view name) {
  if (!name.starts_with("python")) return std::nullopt;
  name.remove_prefix(6);
  if (name.ends_with('m')) name.remove_suffix(1);
  const auto dot = name.find('.');
  const auto digits = [](std::string_view d) {
    return !d.empty() && std::all_of(d.begin(), d.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (dot == std::string_view::npos || !digits(name.substr(0, dot)) || !digits(name.substr(dot + 1))) return std::nullopt;
  return std::string(name);
}

// The full version, where the C headers are installed (3.7 and before put
// them under include/python3.Ym).
std::optional<std::string> version_in_patchlevel(const Host& h, const std::string& prefix, const std::string& xy) {
  for (const char* abi : {"", "m"}) {
    auto text = h.read_file(prefix + "/include/python" + xy + abi + "/patchlevel.h", 1 << 16);
    if (!text) continue;
    const auto defs = macro_definitions(*text);  // #define PY_VERSION "3.11.7"
    const auto v = defs.find("PY_VERSION");
    if (v == defs.end()) continue;
    if (!v->second.empty() && v->second[0] >= '0' && v->second[0] <= '9') return v->second;
  }
  return std::nullopt;
}

// Debian's interpreter without its -dev package has no patchlevel.h; its
// package's version says the same ("3.11.2-6+deb12u6" -> "3.11.2").
std::optional<std::string> version_in_dpkg(const Host& h, const std::string& xy) {
  auto status = h.read_file("/var/lib/dpkg/status");
  if (!status) return std::nullopt;
  auto pkg = find_installed_package(*status, "python" + xy + "-minimal");
  if (!pkg || !starts_with(pkg->version, xy + ".")) return std::nullopt;
  return pkg->version.substr(0, pkg->version.find_first_of("-+~"));
}

}  // namespace

Result<InterpreterAnswer> sys_path_from_files(const Host& h, const std::string& interpreter) {
  for (const char* var : {"PYTHONPLATLIBDIR", "PYTHONEXECUTABLE"})
    if (auto v = h.env(var); v && !v->empty()) return unsettled(interpreter, std::string("$") + var + " is set");
  auto real = h.real_path(interpreter);
  if (!real) return real.problem();
  if (auto head = h.read_range(*real, 0, 4); !head || *head != "\x7f" "ELF")
    return unsettled(*real, "not an ELF executable (a wrapper script decides which interpreter runs)");

  Layout l;
  const std::string bin = dir_of(interpreter);
  std::optional<std::string> home;
  for (const std::string& cfg_path : {bin + "/pyvenv.cfg", dir_of(bin) + "/pyvenv.cfg"}) {
    auto text = h.read_file(cfg_path, 1 << 16);
    if (!text) continue;
    auto cfg = parse_pyvenv_cfg(*text);
    l.venv = dir_of(bin);
    if (auto it = cfg.find("home"); it != cfg.end()) home = it->second;
    if (auto it = cfg.find("include-system-site-packages"); it != cfg.end()) l.system_site = to_lower(it->second) == "true";
    for (const char* k : {"version", "version_info"})
      if (auto it = cfg.find(k); it != cfg.end() && l.version.empty()) l.version = it->second;
    if (!home) return unsettled(cfg_path, "pyvenv.cfg names no home");
    break;
  }

  const std::string name = base_of(*real);
  if (auto xy = xy_of_name(name)) l.xy = *xy;
  else if (!l.version.empty() && split(l.version, '.').size() >= 2)
    l.xy = std::string(split(l.version, '.')[0]) + "." + std::string(split(l.version, '.')[1]);
  else return unsettled(*real, "its name (" + name + ") does not give the Python version");
  if (!starts_with(l.xy, "3.")) return unsettled(*real, "Python " + l.xy + " (only Python 3's rules are followed)");

  const std::string stdlib_landmark = "lib/python" + l.xy + "/os.py";
  const std::string dynload_landmark = "lib/python" + l.xy + "/lib-dynload";
  if (auto ph = h.env("PYTHONHOME"); ph && !ph->empty()) {
    if (l.venv) return unsettled(interpreter, "$PYTHONHOME is set for a venv's interpreter");
    const auto parts = split(*ph, ':');
    l.prefix = normpath(std::string(parts[0]));
    l.exec_prefix = normpath(std::string(parts.size() > 1 ? parts[1] : parts[0]));
  } else {
    // A venv's base is found from its home; an installation from the real
    // executable's directory, through the links that lead to it.
    const std::string start = home ? normpath(*home) : dir_of(*real);
    auto prefix = search_up(h, start, stdlib_landmark);
    if (!prefix) return unsettled(start, "no " + stdlib_landmark + " at or above it: the interpreter's built-in prefix decides");
    auto exec_prefix = search_up(h, start, dynload_landmark);
    if (!exec_prefix) return unsettled(start, "no " + dynload_landmark + " at or above it");
    l.prefix = *prefix;
    l.exec_prefix = *exec_prefix;
  }
  const std::string stdlib = l.prefix + "/lib/python" + l.xy;
  auto rules = site_rules(h, stdlib);
  if (!rules) return rules.problem();
  if (l.version.empty()) {
    auto v = version_in_patchlevel(h, l.prefix, l.xy);
    if (!v && rules->flavour == SiteRules::debian) v = version_in_dpkg(h, l.xy);
    l.version = v.value_or(l.xy);
  }

  SysPath sp(h, *rules, l);
  if (auto pp = h.env("PYTHONPATH"); pp && !pp->empty())
    for (auto entry : split(*pp, ':')) {
      if (!starts_with(entry, "/"))
        return unsettled(interpreter, "$PYTHONPATH has a relative or empty entry, which depends on the job's working directory");
      sp.add(std::string(entry));
    }
  sp.add(l.prefix + "/lib/python" + std::string(split(l.xy, '.')[0]) + std::string(split(l.xy, '.')[1]) + ".zip");
  sp.add(stdlib);
  sp.add(l.exec_prefix + "/lib/python" + l.xy + "/lib-dynload");

  // site.main: the venv's own site-packages first; then the user's, unless
  // the venv shuts the system out; then every prefix's.
  std::vector<std::string> prefixes{l.prefix, l.exec_prefix};
  bool user_site = !(h.env("PYTHONNOUSERSITE") && !h.env("PYTHONNOUSERSITE")->empty());
  if (l.venv) {
    sp.add_site_packages(*l.venv);
    sp.forget_prefixes();
    if (l.system_site) {
      prefixes.insert(prefixes.begin(), *l.venv);
    } else {
      prefixes = {*l.venv};
      user_site = false;
    }
  }
  if (user_site) {
    std::string base;
    if (auto ub = h.env("PYTHONUSERBASE"); ub && !ub->empty()) base = *ub;
    else if (auto home_dir = h.env("HOME"); home_dir && !home_dir->empty()) base = *home_dir + "/.local";
    else return unsettled(interpreter, "neither $HOME nor $PYTHONUSERBASE is set: the user site is not known");
    if (!starts_with(base, "/")) return unsettled(interpreter, "the user base " + base + " is relative");
    sp.add_site_dir(normpath(base) + "/lib/python" + l.xy + "/site-packages");
  }
  for (auto& p : prefixes) sp.add_site_packages(p);

  InterpreterAnswer a;
  a.version = l.version;
  a.prefix = l.venv.value_or(l.prefix);
  a.base_prefix = l.prefix;
  a.executable = interpreter;
  a.path = sp.take();
  return a;
}

}  // namespace gpucheck
