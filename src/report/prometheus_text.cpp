#include "report/prometheus_text.hpp"

#include "report/format_text.hpp"

namespace gpucheck {

namespace {

// A label value: backslash, double quote and newline escaped, as the format says.
std::string label_value(std::string_view v) {
  std::string out;
  for (char c : safe_text(v)) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string series(const std::string& name, const Labels& labels) {
  if (labels.empty()) return name;
  std::string out = name + "{";
  for (std::size_t i = 0; i < labels.size(); ++i)
    out += (i ? "," : "") + labels[i].first + "=\"" + label_value(labels[i].second) + "\"";
  return out + "}";
}

}  // namespace

void Family::add(const Labels& labels, std::int64_t value) {
  const std::string s = series(name_, labels);
  auto [it, fresh] = index_.emplace(s, values_.size());
  if (fresh) values_.emplace_back(s, value);
  else values_[it->second].second += value;
}

void Family::write(std::string& out) const {
  if (values_.empty()) return;
  out += "# HELP " + name_ + " " + help_ + "\n# TYPE " + name_ + " gauge\n";
  for (const auto& [s, v] : values_) out += s + " " + std::to_string(v) + "\n";
}

}  // namespace gpucheck
