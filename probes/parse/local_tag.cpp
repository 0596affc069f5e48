// What the local tag of a GPU framework's version says it was built for:
// PyTorch's "+cu121", "+rocm6.0", "+cpu"; jaxlib's "+cuda12.cudnn89".
#include "parse/local_tag.hpp"

#include <cctype>

#include "util/strings.hpp"

namespace gpucheck {

std::optional<std::string> cuda_from_local_tag(std::string_view tag) {
  std::string t = to_lower(tag);
  // jaxlib's "cuda12.cudnn89": the first segment.
  if (auto dot = t.find('.'); dot != std::string::npos && t.rfind("cuda", 0) == 0) t = t.substr(0, dot);
  std::string digits;
  if (t.rfind("cuda", 0) == 0) digits = t.substr(4);
  else if (t.rfind("cu", 0) == 0) digits = t.substr(2);
  else return std::nullopt;
  if (digits.empty() || digits.size() > 4) return std::nullopt;
  for (char c : digits)
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
  if (t.rfind("cuda", 0) == 0 || digits.size() == 1) return digits;  // "cuda12" -> "12"
  // "cu121" -> 12.1, "cu118" -> 11.8, "cu92" -> 9.2: the last digit is the minor.
  return digits.substr(0, digits.size() - 1) + "." + digits.substr(digits.size() - 1);
}

std::optional<std::string> hip_from_local_tag(std::string_view tag) {
  const std::string t = to_lower(tag);
  if (t.rfind("rocm", 0) != 0 || t.size() == 4) return std::nullopt;
  const std::string v = t.substr(4);
  if (!std::isdigit(static_cast<unsigned char>(v[0]))) return std::nullopt;
  return v;
}

std::optional<std::string> cudnn_from_local_tag(std::string_view tag) {
  const auto c = tag.find("cudnn");
  if (c == std::string_view::npos) return std::nullopt;
  const std::string digits(tag.substr(c + 5));
  // "cudnn89": the first digit is the major, as cuDNN has had no two-digit major.
  if (digits.size() < 2 || !parse_int(digits)) return std::nullopt;
  return digits.substr(0, 1) + "." + digits.substr(1);
}

}  // namespace gpucheck
