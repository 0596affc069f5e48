// Reading a lock back. Every error names the file and line and says what was
// expected; a lock that does not parse is never half-used.
#include <cstdio>
#include <map>

#include "lock/fields.hpp"
#include "lock/lockfile.hpp"
#include "util/files.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

class LineError {
 public:
  LineError(std::string_view name, std::size_t line) : name_(name), line_(line) {}
  Problem operator()(const std::string& what) const {
    return Problem{Reason::malformed, name_ + ":" + std::to_string(line_), what};
  }

 private:
  std::string name_;
  std::size_t line_;
};

std::string known_sections() {
  std::vector<std::string> s;
  for (auto v : lock_sections()) s.emplace_back(v);
  return join(s, ", ");
}

int hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A quoted value starting at text[0] == '"'. Sets `used` to the characters consumed.
Result<std::string> unquote(std::string_view text, std::size_t& used, const LineError& err) {
  std::string out;
  for (std::size_t i = 1; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      used = i + 1;
      return out;
    }
    if (c != '\\') {
      out += c;
      continue;
    }
    if (++i >= text.size()) break;
    switch (text[i]) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'x': {
        const int hi = i + 1 < text.size() ? hex(text[i + 1]) : -1;
        const int lo = i + 2 < text.size() ? hex(text[i + 2]) : -1;
        if (hi < 0 || lo < 0) return err("bad escape \\x: expected two hex digits");
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
        break;
      }
      default: return err(std::string("unknown escape \\") + text[i] + " in a value; expected \\\" \\\\ \\n \\t or \\xHH");
    }
  }
  return err("unterminated value: the closing \" is missing (a hand edit, or a truncated file?)");
}

struct SeenAt {
  std::map<std::string, std::size_t> sections, fields;
};

}  // namespace

Result<Lock> parse_lock(std::string_view text, std::string_view name) {
  Lock lock;
  bool header = false, ended = false;
  std::string section;
  SeenAt seen;
  std::size_t line_no = 0, end_line = 0;
  // split_lines would hide a final line without its newline; walk by hand.
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    std::string_view raw = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    ++line_no;
    const LineError err(name, line_no);
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);  // an editor's CRLF
    for (unsigned char c : raw) {
      if ((c < 0x20 && c != '\t') || c == 0x7f) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "0x%02x", c);
        return err(std::string("corrupt: byte ") + buf + " is not text (a lockfile is a text file)");
      }
    }
    std::string_view line = trim(raw);
    if (line.empty() || line.front() == '#') continue;
    if (ended) return err("text after the `end` line (line " + std::to_string(end_line) + ")");

    if (!header) {
      auto words = split(line, ' ');
      if (words.empty() || words.front() != "gpucheck-lock")
        return err("expected the header `gpucheck-lock " + std::to_string(kLockSchema) + "`, found '" +
                   std::string(line) + "': not a gpucheck lockfile");
      auto n = words.size() == 2 ? parse_int(words[1]) : std::nullopt;
      if (!n || *n < 1) return err("the header must be `gpucheck-lock <schema number>`, found '" + std::string(line) + "'");
      if (*n > kLockSchema)
        return err("written by a newer gpucheck: lock schema " + std::to_string(*n) + ", this gpucheck reads schema " +
                   std::to_string(kLockSchema) + "; upgrade gpucheck to verify it");
      lock.schema = static_cast<int>(*n);
      header = true;
      continue;
    }

    if (line == "end") {
      ended = true;
      end_line = line_no;
      continue;
    }

    if (line.front() == '[') {
      if (line.back() != ']') return err("a section header is `[name]`; the closing ] is missing");
      std::string s(trim(line.substr(1, line.size() - 2)));
      if (!is_known_section(s)) return err("unknown section [" + s + "]; this schema has " + known_sections());
      if (auto [it, fresh] = seen.sections.emplace(s, line_no); !fresh)
        return err("section [" + s + "] appears twice (first at line " + std::to_string(it->second) + ")");
      section = s;
      continue;
    }

    // key = value  [policy]  [# comment]
    const auto eq = line.find('=');
    if (eq == std::string_view::npos) return err("expected `key = \"value\"  policy`, found '" + std::string(line) + "'");
    const std::string key(trim(line.substr(0, eq)));
    if (!is_valid_key(key)) return err("'" + key + "' is not a field name (letters, digits, '.', '_', '-')");
    if (section.empty()) return err("field '" + key + "' comes before any [section]");
    const FieldSpec* spec = find_field(section, key);
    if (!spec) return err("unknown field " + section + "." + key + " in schema " + std::to_string(lock.schema));
    const std::string field = section + "." + key;
    if (auto [it, fresh] = seen.fields.emplace(field, line_no); !fresh)
      return err(field + " is set twice (first at line " + std::to_string(it->second) + ")");

    std::string_view rest = trim(line.substr(eq + 1));
    LockEntry e{section, key, std::nullopt, spec->default_policy, ""};
    if (!rest.empty() && rest.front() == '"') {
      std::size_t used = 0;
      auto v = unquote(rest, used, err);
      if (!v) return v.problem();
      e.value = std::move(v).value();
      rest = trim(rest.substr(used));
    } else if (starts_with(rest, "none") && (rest.size() == 4 || rest[4] == ' ' || rest[4] == '\t')) {
      rest = trim(rest.substr(4));
    } else {
      return err("the value of " + field + " must be a quoted string or `none`, found '" + std::string(rest) + "'");
    }
    if (auto hash = rest.find('#'); hash != std::string_view::npos) {
      e.comment = std::string(trim(rest.substr(hash + 1)));
      rest = trim(rest.substr(0, hash));
    }
    if (!rest.empty()) {
      auto p = parse_policy(rest);
      if (!p)
        return err("unknown policy '" + std::string(rest) + "' for " + field +
                   "; expected exact, same-branch, at-least or ignore");
      e.policy = *p;
    }
    lock.entries.push_back(std::move(e));
  }
  const LineError at_end(name, line_no == 0 ? 1 : line_no);
  if (!header) return at_end("empty: no `gpucheck-lock` header (an empty or truncated file)");
  if (!ended) return at_end("the file ends before its `end` line: truncated, or the last lines were deleted");
  return lock;
}

Result<Lock> read_lock_file(const std::string& path) {
  // A lock is a few hundred lines; a bound keeps a wrong path (a disk image,
  // /dev/zero) from being read whole.
  auto text = read_whole_file(path, 4u << 20, "lockfile");
  if (!text) {
    Problem p = text.problem();
    if (p.reason == Reason::absent) p.detail += " (write one with `gpucheck lock`)";
    return p;
  }
  return parse_lock(*text, path);
}

}  // namespace gpucheck
