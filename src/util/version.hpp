// Typed versions: parsed once, compared numerically, printed as read.
//
// Driver 535.104.05, CUDA 12.2, cuDNN 9.1.0: dotted numeric components, an
// optional suffix kept verbatim ("+cu121", "-1ubuntu1") that does not take
// part in ordering. "05" keeps its zero when printed but compares as 5.
#pragma once

#include <compare>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cereal {
class access;  // the built-in matrix image reads and writes a Version's parts (matrix/matrix_archive.hpp)
}

namespace gpucheck {

class Version {
 public:
  // Accepts "12", "12.2", "535.104.05", "2.1.0+cu121". Returns nullopt for
  // anything that does not start with a number.
  static std::optional<Version> parse(std::string_view text);
  // CUDA encodes versions as 1000*major + 10*minor (cuDriverGetVersion);
  // nullopt for a number that is not one (below 1.0, above 999.99).
  static std::optional<Version> from_cuda_int(long long v);

  const std::string& text() const { return text_; }
  const std::vector<long>& parts() const { return parts_; }
  const std::string& suffix() const { return suffix_; }
  long major() const { return part(0); }
  long minor() const { return part(1); }
  long patch() const { return part(2); }
  long part(std::size_t i) const { return i < parts_.size() ? parts_[i] : 0; }
  // "9.1" of cuDNN 9.1.0: the release a library's ABI check compares.
  Version major_minor() const;

  // Missing components compare as zero: 12.2 == 12.2.0.
  std::strong_ordering operator<=>(const Version& o) const;
  bool operator==(const Version& o) const { return (*this <=> o) == 0; }

 private:
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& a) {
    a(text_, parts_, suffix_);
  }

  std::string text_;
  std::vector<long> parts_;
  std::string suffix_;
};

// Each version as it was written, for messages and lists.
std::vector<std::string> version_texts(const std::vector<Version>& versions);

}  // namespace gpucheck
