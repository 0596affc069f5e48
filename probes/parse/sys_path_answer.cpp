// The interpreter's answer to the sys.path question that python_probe.cpp
// asks: NUL-separated fields, so that any path survives.
#include "parse/sys_path_answer.hpp"

#include <algorithm>

#include "util/strings.hpp"
#include "util/version.hpp"

namespace gpucheck {

Result<InterpreterAnswer> parse_interpreter_answer(std::string_view text) {
  // Fields separated by NUL: version, prefix, base prefix, executable, then sys.path.
  std::vector<std::string_view> fields;
  for (std::size_t from = 0;;) {
    const auto nul = text.find('\0', from);
    fields.push_back(text.substr(from, nul == std::string_view::npos ? std::string_view::npos : nul - from));
    if (nul == std::string_view::npos) break;
    from = nul + 1;
  }
  const auto shown = [&] {
    std::string s = "\"";
    s += trim(text.substr(0, std::min<std::size_t>(80, text.find('\0'))));
    s += '"';
    return s;
  };
  if (fields.size() < 4)
    return Problem{Reason::malformed, "", "the sys.path answer is not version, prefix, base prefix, executable and paths separated by NUL: " + shown()};
  if (!Version::parse(fields[0]))
    return Problem{Reason::malformed, "", "the sys.path answer does not start with a Python version: " + shown()};
  InterpreterAnswer a{std::string(fields[0]), std::string(fields[1]), std::string(fields[2]), std::string(fields[3]), {}};
  for (std::size_t i = 4; i < fields.size(); ++i)
    if (!fields[i].empty() && fields[i] != ".") a.path.emplace_back(fields[i]);
  return a;
}

}  // namespace gpucheck
