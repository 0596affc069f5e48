#include "rules/knowledge_image.hpp"

#include <cereal/archives/binary.hpp>
#include <istream>
#include <sstream>
#include <streambuf>

#include "rules/rule_archive.hpp"

namespace gpucheck {
namespace {

// Changes whenever the layout does: an image is only ever read by the
// build that wrote it, so this guards against a stale generated file.
constexpr std::string_view kMagic = "gpucheck matrix image 1\n";

// An istream over bytes already in memory, which are never written.
class ViewBuffer : public std::streambuf {
 public:
  explicit ViewBuffer(std::string_view bytes) {
    char* p = const_cast<char*>(bytes.data());
    setg(p, p, p + bytes.size());
  }
};

Problem not_an_image(const std::string& name, const std::string& why) {
  return Problem{Reason::malformed, name, "not a matrix image of this gpucheck: " + why};
}

// Reads the header, then whatever `more` reads after it, turning what cereal
// throws (bytes that end early, a length past the end) into a Problem.
template <class More>
Result<ImageHeader> read(std::string_view image, const std::string& name, More more) {
  if (image.substr(0, kMagic.size()) != kMagic) return not_an_image(name, "it does not start with \"gpucheck matrix image 1\"");
  ViewBuffer buffer(image.substr(kMagic.size()));
  std::istream in(&buffer);
  try {
    cereal::BinaryInputArchive archive(in);
    ImageHeader h;
    archive(h.version, h.date);
    more(archive);
    return h;
  } catch (const std::exception& e) {
    return not_an_image(name, e.what());
  }
}

}  // namespace

std::string write_knowledge_image(const Knowledge& k) {
  std::ostringstream out;
  out << kMagic;
  {
    cereal::BinaryOutputArchive archive(out);
    archive(k.matrix.version, k.matrix.date, k.matrix, k.rules);
  }
  return std::move(out).str();
}

Result<ImageHeader> read_image_header(std::string_view image, const std::string& name) {
  return read(image, name, [](auto&) {});
}

Result<Knowledge> read_knowledge_image(std::string_view image, const std::string& name) {
  Knowledge k;
  auto header = read(image, name, [&](auto& archive) { archive(k.matrix, k.rules); });
  if (!header) return header.problem();
  k.matrix.version = header->version;
  k.matrix.date = header->date;
  return k;
}

}  // namespace gpucheck
