// The lock's text form. No column alignment: padding would make one
// moved version re-indent its neighbours in a diff.
#include <cstdio>

#include "lock/fields.hpp"
#include "lock/lockfile.hpp"

namespace gpucheck {

namespace {

constexpr const char* kHexDigits = "0123456789abcdef";

std::string quote(std::string_view v) {
  std::string out = "\"";
  for (unsigned char c : v) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          out += "\\x";
          out += kHexDigits[c >> 4];
          out += kHexDigits[c & 15];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

// A comment runs to the end of its line: control characters become spaces.
std::string one_line(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  return out;
}

}  // namespace

std::string render_lock(const Lock& lock) {
  std::string out;
  out += "# gpucheck lockfile: the GPU stack of one host, pinned for review and for `gpucheck verify`.\n";
  out += "# Format, fields and policies: docs/lockfile.md. One fact per line:\n";
  out += "#   key = \"value\"  policy  # where the value came from\n";
  out += "# Policies: exact, same-branch, at-least, ignore. `none`: the host does not have it.\n";
  out += "gpucheck-lock " + std::to_string(lock.schema) + "\n";
  std::string section;
  for (const auto& e : lock.entries) {
    if (e.section != section) {
      section = e.section;
      out += "\n[" + section + "]\n";
    }
    out += e.key + " = " + (e.value ? quote(*e.value) : "none") + "  " + std::string(to_string(e.policy));
    if (!e.comment.empty()) out += "  # " + one_line(e.comment);
    out += "\n";
  }
  // A lock cut short at a line boundary would still parse; the end marker
  // makes truncation an error instead of silently unpinned fields.
  out += "\nend\n";
  return out;
}

}  // namespace gpucheck
