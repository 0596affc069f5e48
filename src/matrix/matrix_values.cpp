#include "matrix/matrix_values.hpp"

#include <cctype>

#include "matrix/precisions.hpp"
#include "util/strings.hpp"
#include "util/version.hpp"

namespace gpucheck::matrix_values {
namespace {

bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool hex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }
bool lower_alnum(char c) { return digit(c) || (c >= 'a' && c <= 'z'); }

bool all_of(std::string_view s, bool (*pred)(char)) {
  for (char c : s)
    if (!pred(c)) return false;
  return true;
}

// "2026-11" style numeric fields of fixed width within a range.
bool number_field(std::string_view s, std::size_t width, int lo, int hi) {
  if (s.size() != width || !all_of(s, digit)) return false;
  int n = 0;
  for (char c : s) n = n * 10 + (c - '0');
  return n >= lo && n <= hi;
}

}  // namespace

std::optional<std::string> plain_version(std::string_view s) {
  const auto v = Version::parse(s);
  if (!v || !v->suffix().empty()) return "a version of numbers separated by dots, like \"12.4.1\"";
  return std::nullopt;
}

std::optional<std::string> release_version(std::string_view s) {
  const auto v = Version::parse(s);
  if (v && !v->suffix().empty()) {
    const std::string_view suffix = v->suffix();
    const bool post = suffix.size() > 5 && suffix.substr(0, 5) == ".post" &&
                      suffix.find_first_not_of("0123456789", 5) == std::string_view::npos;
    if (post) return std::nullopt;
  }
  if (!v || !v->suffix().empty()) return "a version of numbers separated by dots, like \"2.2.0\", or a post release, like \"0.4.0.post1\"";
  return std::nullopt;
}

std::optional<std::string> version_with_suffix(std::string_view s) {
  const auto v = Version::parse(s);
  if (!v || s.find_first_of(" \t\r\n") != std::string_view::npos)
    return "a version that starts with numbers separated by dots, like \"2.2.0\" or \"2.2.0a0+81ea7a4\"";
  return std::nullopt;
}

std::optional<std::string> compute_capability(std::string_view s) {
  const auto v = Version::parse(s);
  if (!v || !v->suffix().empty() || v->parts().size() != 2)
    return "a compute capability \"major.minor\", like \"9.0\"";
  return std::nullopt;
}

std::optional<std::string> https_url(std::string_view s) {
  constexpr std::string_view kScheme = "https://";
  const char* expected = "an https:// URL of the page the fact comes from";
  if (s.substr(0, kScheme.size()) != kScheme) return expected;
  const auto rest = s.substr(kScheme.size());
  const auto host = rest.substr(0, rest.find_first_of("/?#:"));
  if (host.empty() || host.find('.') == std::string_view::npos) return expected;
  for (char c : host)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-')) return expected;
  for (char c : s)
    if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f) return expected;
  return std::nullopt;
}

std::optional<std::string> iso_date(std::string_view s) {
  if (s.size() == 10 && s[4] == '-' && s[7] == '-' && number_field(s.substr(0, 4), 4, 1990, 2999) &&
      number_field(s.substr(5, 2), 2, 1, 12) && number_field(s.substr(8, 2), 2, 1, 31))
    return std::nullopt;
  return "a date \"YYYY-MM-DD\", like \"2026-11-29\"";
}

std::optional<std::string> year_month(std::string_view s) {
  if (s.size() == 7 && s[4] == '-' && number_field(s.substr(0, 4), 4, 1990, 2999) &&
      number_field(s.substr(5, 2), 2, 1, 12))
    return std::nullopt;
  if (s.size() == 10 && !iso_date(s)) return std::nullopt;
  return "a date \"YYYY-MM\" or \"YYYY-MM-DD\", like \"2024-04\"";
}

std::optional<std::string> checked(std::string_view s) {
  if (s == "docs" || s == "copy") return std::nullopt;
  if (s.substr(0, 6) == "wheel " && !iso_date(s.substr(6))) return std::nullopt;
  return "how the entry was confirmed: \"docs\", \"copy\" or \"wheel YYYY-MM-DD\"";
}

std::optional<std::string> pci_id(std::string_view s) {
  if (s.size() == 9 && s[4] == ':' && all_of(s.substr(0, 4), hex) && all_of(s.substr(5), hex)) return std::nullopt;
  return "a PCI vendor:device id \"vvvv:dddd\" in hex, like \"10de:2330\"";
}

std::optional<std::string> precision(std::string_view s) {
  for (const auto& k : matrix_precisions())
    if (s == k) return std::nullopt;
  return "one of " + join(matrix_precisions(), ", ");
}

std::optional<std::string> gpu_figure(std::string_view s) {
  if (s == "memory_gib" || s == "bandwidth_gbs" || s == "nvlink") return std::nullopt;
  if (s.substr(0, 7) == "tflops." && !precision(s.substr(7))) return std::nullopt;
  return "a figure of the entry: memory_gib, bandwidth_gbs, nvlink or tflops.<precision> (" + join(matrix_precisions(), ", ") + ")";
}

std::optional<std::string> identifier(std::string_view s) {
  const char* expected = "a lower-case identifier of letters, digits, '.', '_' and '-', like \"h100-sxm5-80gb\"";
  if (s.empty() || !lower_alnum(s.front())) return expected;
  for (char c : s)
    if (!(lower_alnum(c) || c == '.' || c == '_' || c == '-')) return expected;
  return std::nullopt;
}

std::optional<std::string> hf_repo(std::string_view s) {
  const char* expected = "a Hugging Face repository, owner/name, like \"meta-llama/Llama-2-70b-hf\"";
  const auto slash = s.find('/');
  if (slash == 0 || slash == std::string_view::npos || slash + 1 == s.size() || s.find('/', slash + 1) != std::string_view::npos)
    return expected;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '.' || c == '_' || c == '-')) return expected;
  return std::nullopt;
}

std::optional<std::string> variant(std::string_view s) {
  if (s.empty()) return std::nullopt;
  return identifier(s) ? std::optional<std::string>("a build variant in lower case, like \"cu121\", \"rocm6.0\" or \"cpu\"")
                       : std::nullopt;
}

std::optional<std::string> vendor(std::string_view s) {
  if (s == "nvidia" || s == "amd") return std::nullopt;
  return "\"nvidia\" or \"amd\"";
}

std::optional<std::string> gfx_target(std::string_view s) {
  if (s.size() > 3 && s.substr(0, 3) == "gfx" && all_of(s.substr(3), [](char c) { return digit(c) || (c >= 'a' && c <= 'f'); }))
    return std::nullopt;
  return "an AMD gfx target, like \"gfx942\" or \"gfx90a\"";
}

std::optional<std::string> os_release(std::string_view s) {
  const auto space = s.find(' ');
  const bool ok = space != std::string_view::npos && space > 0 && space + 1 < s.size() &&
                  all_of(s.substr(0, space), [](char c) { return (c >= 'a' && c <= 'z') || digit(c) || c == '-' || c == '_' || c == '.'; }) &&
                  all_of(s.substr(space + 1), [](char c) { return digit(c) || c == '.'; });
  if (ok) return std::nullopt;
  return "os-release's ID and VERSION_ID (or its leading part), like \"ubuntu 24.04\" or \"ol 9\"";
}

std::optional<std::string> name_pattern(std::string_view s) {
  if (s.empty() || s.find_first_not_of(' ') == std::string_view::npos) return "a non-empty substring of the product name";
  for (char c : s)
    if (std::isupper(static_cast<unsigned char>(c)))
      return "a lower-case substring of the product name (names are lower-cased before matching)";
  return std::nullopt;
}

std::optional<std::string> non_empty(std::string_view s) {
  if (s.empty()) return "a non-empty string";
  return std::nullopt;
}

std::optional<std::string> soname_prefix(std::string_view s) {
  if (s.size() <= 3 || !starts_with(s, "lib") || s.find_first_of("/ \t\r\n") != std::string_view::npos)
    return "the start of a soname, \"lib\" and more, like \"libcublas\"";
  return std::nullopt;
}

std::optional<std::string> soname(std::string_view s) {
  const auto so = s.find(".so.");
  if (!starts_with(s, "lib") || so == std::string_view::npos || so + 4 == s.size() ||
      s.find_first_of("/ \t\r\n") != std::string_view::npos)
    return "a soname with its version, like \"libcudnn_ops.so.9\"";
  return std::nullopt;
}

std::optional<std::string> wheel_name(std::string_view s) {
  const char* expected = "a PyPI project name in PEP 503 normal form (lower case, '-' between words), like \"nvidia-cudnn-cu12\"";
  if (s.empty() || !lower_alnum(s.front()) || !lower_alnum(s.back()) || s.find("--") != std::string_view::npos)
    return expected;
  for (char c : s)
    if (!(lower_alnum(c) || c == '-')) return expected;
  return std::nullopt;
}

std::optional<std::string> cuda_error_name(std::string_view s) {
  constexpr std::string_view kPrefix = "CUDA_ERROR_";
  const auto upper = [](char c) { return digit(c) || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (s.size() <= kPrefix.size() || !starts_with(s, kPrefix) || !all_of(s, upper))
    return "a CUresult name from cuda.h, like \"CUDA_ERROR_STUB_LIBRARY\"";
  return std::nullopt;
}

std::optional<LineEncoding> parse_line_encoding(std::string_view s) {
  const auto slash = s.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  const auto bits = [](std::string_view part) -> std::optional<int> {
    if (part.size() < 2 || part.size() > 5 || part.back() != 'b') return std::nullopt;
    part.remove_suffix(1);
    if (!all_of(part, digit) || part.front() == '0') return std::nullopt;
    int n = 0;
    for (char c : part) n = n * 10 + (c - '0');
    return n;
  };
  const auto payload = bits(s.substr(0, slash)), line = bits(s.substr(slash + 1));
  if (!payload || !line || *payload > *line) return std::nullopt;
  return LineEncoding{*payload, *line};
}

std::optional<std::string> line_encoding(std::string_view s) {
  if (!parse_line_encoding(s)) return "a line encoding of payload bits per line bits, like \"128b/130b\"";
  return std::nullopt;
}

}  // namespace gpucheck::matrix_values
