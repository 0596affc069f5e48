// Helpers shared by the tests: reading test data, temporary directories,
// environment variables set for a scope.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "matrix/matrix_load.hpp"

namespace gpucheck::test {

inline std::string source_path(const std::string& rel) { return std::string(GPUCHECK_SOURCE_DIR) + "/" + rel; }

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("test data missing: " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// tests/data/<rel>
inline std::string data(const std::string& rel) { return read_file(source_path("tests/data/" + rel)); }

// A synthetic matrix written as JSON text, loaded as the loader loads a file,
// so that tests see what the loader produces.
inline Matrix load_matrix_text(const std::string& name, const std::string& text) {
  auto loaded = parse_matrix({MatrixDocument{name, text}});
  if (!loaded) throw std::runtime_error(loaded.problem().where + ": " + loaded.problem().detail);
  return std::move(loaded).value();
}

// A matrix value built by hand, and one read back as the matrix wrote it.
inline Version version(std::string_view text) { return Version::parse(text).value(); }
inline std::optional<std::string> text_of(const std::optional<Version>& v) {
  return v ? std::optional<std::string>(v->text()) : std::nullopt;
}

inline void write_file(const std::filesystem::path& p, const std::string& content) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << content;
}

// A fresh directory removed when the test ends.
class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/gpucheck-test-XXXXXX";
    if (!::mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    // Restore permissions a test may have removed, so cleanup never fails.
    for (auto it = std::filesystem::recursive_directory_iterator(path_, std::filesystem::directory_options::skip_permission_denied, ec);
         it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
      std::filesystem::permissions(it->path(), std::filesystem::perms::owner_all, std::filesystem::perm_options::add, ec);
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }
  std::string str() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

// Sets (or, with nullopt, unsets) an environment variable for the scope,
// restoring what was there.
class ScopedEnv {
 public:
  ScopedEnv(std::string name, const std::optional<std::string>& value) : name_(std::move(name)) {
    if (const char* old = std::getenv(name_.c_str())) old_ = old;
    if (value) ::setenv(name_.c_str(), value->c_str(), 1);
    else ::unsetenv(name_.c_str());
  }
  ~ScopedEnv() {
    if (old_) ::setenv(name_.c_str(), old_->c_str(), 1);
    else ::unsetenv(name_.c_str());
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  std::optional<std::string> old_;
};

}  // namespace gpucheck::test
