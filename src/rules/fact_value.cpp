#include "rules/fact_value.hpp"

#include <cmath>
#include <cstdio>

#include "util/strings.hpp"

namespace gpucheck {

std::string_view to_string(FactKind k) {
  switch (k) {
    case FactKind::text: return "text";
    case FactKind::version: return "version";
    case FactKind::number: return "number";
    case FactKind::boolean: return "boolean";
    case FactKind::list: return "list";
  }
  return "text";
}

FactValue FactValue::of_text(std::string v, std::string source) {
  FactValue f;
  f.kind = FactKind::text;
  f.text = std::move(v);
  f.source = std::move(source);
  return f;
}

FactValue FactValue::of_version(std::string v, std::string source) {
  FactValue f = of_text(std::move(v), std::move(source));
  f.kind = FactKind::version;
  f.version = Version::parse(f.text);
  return f;
}

FactValue FactValue::of_version(const Version& v, std::string source) {
  FactValue f = of_text(v.text(), std::move(source));
  f.kind = FactKind::version;
  f.version = v;
  return f;
}

FactValue FactValue::of_number(double v, std::string source) {
  FactValue f;
  f.kind = FactKind::number;
  f.number = v;
  char buf[64];
  if (std::floor(v) == v && std::fabs(v) < 1e15) std::snprintf(buf, sizeof buf, "%.0f", v);
  else std::snprintf(buf, sizeof buf, "%g", v);
  f.text = buf;
  f.source = std::move(source);
  return f;
}

FactValue FactValue::of_bool(bool v, std::string source) {
  FactValue f;
  f.kind = FactKind::boolean;
  f.boolean = v;
  f.text = v ? "true" : "false";
  f.source = std::move(source);
  return f;
}

FactValue FactValue::of_list(std::vector<std::string> v, std::string source) {
  FactValue f;
  f.kind = FactKind::list;
  f.text = join(v, ", ");
  f.items = std::move(v);
  f.item_versions.reserve(f.items.size());
  for (const auto& item : f.items) f.item_versions.push_back(Version::parse(item));
  f.source = std::move(source);
  return f;
}

FactValue FactValue::of_list(const std::vector<Version>& v, std::string source) {
  FactValue f = of_text("", std::move(source));
  f.kind = FactKind::list;
  f.items = version_texts(v);
  f.text = join(f.items, ", ");
  f.item_versions.assign(v.begin(), v.end());
  return f;
}

}  // namespace gpucheck
