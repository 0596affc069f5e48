// The text report's building blocks, shared by its sections (one file per
// subject: text_report.cpp for the hardware and driver, <subject>_section.cpp
// for the rest).
#pragma once

#include <cstdio>
#include <sstream>
#include <string>
#include <type_traits>

#include "facts/facts.hpp"
#include "report/reports.hpp"
#include "report/terminal.hpp"
#include "util/memory_size.hpp"

namespace gpucheck {

inline std::string fmt_gib(std::uint64_t bytes) {
  return one_decimal(static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0)) + " GiB";
}

inline std::string fmt_w(double w) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", w);
  return buf;
}

template <class T>
std::string or_unknown(const std::optional<T>& v, const char* unknown = "unknown") {
  if (!v) return unknown;
  if constexpr (std::is_same_v<T, std::string>) return *v;
  else return std::to_string(*v);
}

inline std::string link_text(std::optional<int> gen, std::optional<int> width) {
  return "gen" + or_unknown(gen, "?") + " x" + or_unknown(width, "?");
}

class Writer {
 public:
  explicit Writer(const Style& s) : s_(s) {}
  void section(const std::string& title) { out_ << "\n" << s_.bold(title) << "\n"; }
  // "  label      value    (source)"
  void fact(const std::string& label, const std::string& value, const std::string& source = {}) {
    std::string l = "  " + label;
    if (l.size() < 18) l.resize(18, ' ');
    else l += "  ";
    out_ << l << value;
    if (!source.empty()) out_ << "  " << s_.dim("(" + source + ")");
    out_ << "\n";
  }
  void line(const std::string& text) { out_ << "  " << text << "\n"; }
  std::ostringstream& raw() { return out_; }
  const Style& style() const { return s_; }

 private:
  const Style& s_;
  std::ostringstream out_;
};

// What a section says when it holds nothing: a probe looked and found none;
// a paste only did not show it.
inline const char* nothing_found(const Facts& f) { return f.report ? "not in the report" : "none found"; }

// Sections, in the order the report prints them.
void links_section(Writer& w, const Facts& f);
void software_section(Writer& w, const Facts& f);
void rocm_section(Writer& w, const Facts& f);
void python_section(Writer& w, const Facts& f);
// The loader's view of one framework object, for the Python section.
void loader_lines(Writer& w, const LoaderView& v);

}  // namespace gpucheck
