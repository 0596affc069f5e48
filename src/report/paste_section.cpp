#include "report/paste_section.hpp"

namespace gpucheck {

namespace {

std::string lines_text(int first, int last) {
  return first == last ? "line " + std::to_string(first) : "lines " + std::to_string(first) + "-" + std::to_string(last);
}

}  // namespace

void paste_section(Writer& w, const Facts& facts) {
  if (!facts.report) return;
  const auto& r = *facts.report;
  const auto& s = w.style();
  w.section("Read from " + r.name);
  for (const auto& b : r.blocks) {
    std::string text = b.kind + "  " + s.dim(lines_text(b.first_line, b.last_line));
    if (b.note) text += ": " + *b.note;
    w.line(text);
  }
  if (r.unread_total == 0) return;
  w.line(s.dim("not understood (" + std::to_string(r.unread_total) + (r.unread_total == 1 ? " line" : " lines") + "):"));
  for (const auto& l : r.unread) w.line("  " + s.dim(std::to_string(l.line) + ":") + " " + l.text);
  if (r.unread_total > static_cast<int>(r.unread.size()))
    w.line("  " + s.dim("… and " + std::to_string(r.unread_total - static_cast<int>(r.unread.size())) + " more"));
}

}  // namespace gpucheck
