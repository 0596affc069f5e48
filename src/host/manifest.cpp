#include "host/manifest.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>

#include "util/strings.hpp"
#include "util/json_text.hpp"

namespace gpucheck {
namespace {

using nlohmann::json;

struct Bad {
  std::string path, what;
};

Reason reason_from(const std::string& s, const std::string& path) {
  if (auto r = reason_named(s)) return *r;
  throw Bad{path, "unknown reason \"" + s + "\" (expected one of " + reason_names() + ")"};
}

const json& field(const json& obj, const std::string& key, const std::string& path, json::value_t type) {
  auto it = obj.find(key);
  if (it == obj.end()) throw Bad{path + "." + key, "missing"};
  if (it->type() != type && !(type == json::value_t::number_integer && it->is_number_integer()))
    throw Bad{path + "." + key, std::string("expected ") + json(type).type_name() + ", found " + it->type_name()};
  return *it;
}

std::string opt_string(const json& obj, const std::string& key, const std::string& path) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return {};
  if (!it->is_string()) throw Bad{path + "." + key, std::string("expected string, found ") + it->type_name()};
  return it->get<std::string>();
}

Problem problem_from_json(const json& j, const std::string& path) {
  if (!j.is_object()) throw Bad{path, "expected object"};
  return Problem{reason_from(field(j, "reason", path, json::value_t::string).get<std::string>(), path + ".reason"),
                 opt_string(j, "where", path), opt_string(j, "detail", path)};
}

json problem_to_json(const Problem& p) {
  return json{{"reason", std::string(to_string(p.reason))}, {"where", p.where}, {"detail", p.detail}};
}

std::string file_name_for(const std::string& key) {
  std::string out;
  for (char c : key) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.') ? c : '_';
  return out.substr(0, 120) + ".out";
}

}  // namespace

Result<std::string> read_manifest_file(const std::string& path) {
  // Looked at before it is opened: opening a device can act.
  if (struct stat st {}; ::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
    return Problem{Reason::malformed, path, "is not a regular file (a FIFO, socket or device): not read"};
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return Problem{Reason::malformed, path,
                   errno == ELOOP ? "is a symbolic link: a snapshot's own files are read only as themselves"
                                  : "cannot read " + path + ": " + std::strerror(errno)};
  struct stat st {};
  std::string out;
  std::optional<Problem> why;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) why = Problem{Reason::malformed, path, "is not a regular file"};
  else if (static_cast<std::uint64_t>(st.st_size) > kMaxFileBytes)
    why = Problem{Reason::malformed, path, "is larger than " + std::to_string(kMaxFileBytes >> 20) + " MiB"};
  else {
    out.resize(static_cast<std::size_t>(st.st_size));
    std::size_t got = 0;
    while (got < out.size()) {
      const ssize_t n = ::read(fd, out.data() + got, out.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
    }
    out.resize(got);
  }
  ::close(fd);
  if (why) return *why;
  return out;
}

Result<Manifest> parse_manifest(const std::string& text, const std::string& dir) {
  const std::string file = dir + "/manifest.json";
  auto parsed = parse_json(text);
  if (!parsed) return Problem{Reason::malformed, file, parsed.problem().detail};
  const json& j = *parsed;
  Manifest m;
  try {
    if (!j.is_object()) throw Bad{"$", "expected an object"};
    const auto fmt = field(j, "format", "$", json::value_t::string).get<std::string>();
    if (fmt != kManifestFormat)
      throw Bad{"$.format", "\"" + fmt + "\" is not \"" + kManifestFormat + "\" (written by a newer gpucheck?)"};
    m.description = opt_string(j, "description", "$");
    m.created_by = opt_string(j, "created_by", "$");
    if (auto it = j.find("uname"); it != j.end()) {
      if (!it->is_object()) throw Bad{"$.uname", "expected object"};
      Uname u;
      u.sysname = opt_string(*it, "sysname", "$.uname");
      u.nodename = opt_string(*it, "nodename", "$.uname");
      u.release = opt_string(*it, "release", "$.uname");
      u.version = opt_string(*it, "version", "$.uname");
      u.machine = opt_string(*it, "machine", "$.uname");
      m.uname = u;
    }
    if (auto it = j.find("env"); it != j.end()) {
      if (!it->is_object()) throw Bad{"$.env", "expected object"};
      for (auto& [k, v] : it->items()) {
        if (v.is_null()) m.env[k] = std::nullopt;
        else if (v.is_string()) m.env[k] = v.get<std::string>();
        else throw Bad{"$.env." + k, "expected string or null"};
      }
    }
    if (auto it = j.find("commands"); it != j.end()) {
      if (!it->is_object()) throw Bad{"$.commands", "expected object"};
      for (auto& [k, v] : it->items()) {
        const std::string p = "$.commands[\"" + k + "\"]";
        if (!v.is_object()) throw Bad{p, "expected object"};
        if (v.contains("error")) {
          m.commands.emplace(k, problem_from_json(v["error"], p + ".error"));
          continue;
        }
        CommandResult r;
        r.resolved = opt_string(v, "resolved", p);
        r.exit_code = field(v, "exit_code", p, json::value_t::number_integer).get<int>();
        if (v.contains("signal")) r.signal = field(v, "signal", p, json::value_t::number_integer).get<int>();
        if (v.contains("timed_out")) r.timed_out = field(v, "timed_out", p, json::value_t::boolean).get<bool>();
        r.err = opt_string(v, "stderr", p);
        if (v.contains("stdout_file")) {
          const auto name = field(v, "stdout_file", p, json::value_t::string).get<std::string>();
          // Inside .gpucheck/, through real directories only ("commands/x.out").
          std::string at = dir;
          const auto parts = split(name, '/');
          for (std::size_t i = 0; i < parts.size(); ++i) {
            if (parts[i].empty() || parts[i] == "." || parts[i] == "..")
              throw Bad{p + ".stdout_file", "must be a relative path inside .gpucheck/ without . or .."};
            at.push_back('/');
            at.append(parts[i]);
            struct stat st {};
            if (i + 1 < parts.size() && (::lstat(at.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)))
              throw Bad{p + ".stdout_file", at + " is not a directory (a link?)"};
          }
          auto out = read_manifest_file(at);
          if (!out) throw Bad{p + ".stdout_file", out.problem().detail};
          r.out = std::move(out).value();
        } else {
          r.out = opt_string(v, "stdout", p);
        }
        m.commands.emplace(k, r);
      }
    }
    if (auto it = j.find("calls"); it != j.end()) {
      if (!it->is_object()) throw Bad{"$.calls", "expected object"};
      for (auto& [k, v] : it->items()) {
        const std::string p = "$.calls[\"" + k + "\"]";
        if (!v.is_object()) throw Bad{p, "expected object"};
        if (v.contains("error")) m.calls.emplace(k, problem_from_json(v["error"], p + ".error"));
        else m.calls.emplace(k, field(v, "output", p, json::value_t::string).get<std::string>());
      }
    }
    if (auto it = j.find("unreadable"); it != j.end()) {
      if (!it->is_object()) throw Bad{"$.unreadable", "expected object"};
      for (auto& [k, v] : it->items()) m.unreadable.emplace(k, problem_from_json(v, "$.unreadable[\"" + k + "\"]"));
    }
  } catch (const Bad& b) {
    return Problem{Reason::malformed, file, b.path + ": " + b.what};
  } catch (const json::exception& e) {
    return Problem{Reason::malformed, file, json_error_text(e, text)};
  }
  return m;
}

Result<std::string> write_manifest(const Manifest& m, const std::string& dir) {
  json j;
  j["format"] = kManifestFormat;
  if (!m.description.empty()) j["description"] = m.description;
  if (!m.created_by.empty()) j["created_by"] = m.created_by;
  if (m.uname)
    j["uname"] = {{"sysname", m.uname->sysname}, {"nodename", m.uname->nodename}, {"release", m.uname->release},
                  {"version", m.uname->version}, {"machine", m.uname->machine}};
  j["env"] = json::object();
  for (auto& [k, v] : m.env) j["env"][k] = v ? json(*v) : json(nullptr);
  j["commands"] = json::object();
  for (auto& [k, r] : m.commands) {
    if (!r) {
      j["commands"][k] = {{"error", problem_to_json(r.problem())}};
      continue;
    }
    const std::string name = "commands/" + file_name_for(k);
    std::ofstream out(dir + "/" + name, std::ios::binary);
    out << r->out;
    if (!out) return Problem{Reason::failed, dir + "/" + name, "cannot write"};
    j["commands"][k] = {{"resolved", r->resolved}, {"exit_code", r->exit_code}, {"signal", r->signal},
                        {"timed_out", r->timed_out}, {"stdout_file", name}, {"stderr", r->err}};
  }
  j["calls"] = json::object();
  for (auto& [k, r] : m.calls)
    j["calls"][k] = r ? json{{"output", *r}} : json{{"error", problem_to_json(r.problem())}};
  j["unreadable"] = json::object();
  for (auto& [k, p] : m.unreadable) j["unreadable"][k] = problem_to_json(p);
  return dump_json(j, 2) + "\n";
}

}  // namespace gpucheck
