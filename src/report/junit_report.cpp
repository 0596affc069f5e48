// JUnit XML (machine_formats.hpp), written through pugixml so that every
// name, message and fact is escaped by the XML writer, never by hand.
#include <chrono>
#include <cstdio>
#include <pugixml.hpp>
#include <sstream>

#include "report/format_text.hpp"
#include "report/machine_formats.hpp"

namespace gpucheck {

namespace {

struct Counts {
  int tests = 0, failures = 0, skipped = 0;
};

void set(pugi::xml_node n, const char* attribute, std::string_view value) {
  n.append_attribute(attribute).set_value(xml_text(value).c_str());
}

void text_child(pugi::xml_node parent, const char* name, std::string_view text) {
  parent.append_child(name).append_child(pugi::node_pcdata).set_value(xml_text(text).c_str());
}

// "2026-12-02T00:00:00", as Ant's JUnit task writes it (UTC, no zone).
std::string iso_time(std::int64_t t) {
  const Day day{std::chrono::floor<std::chrono::days>(std::chrono::sys_seconds{std::chrono::seconds{t}})};
  const std::int64_t s = t - std::chrono::duration_cast<std::chrono::seconds>(day.time_since_epoch()).count();
  char buf[16];
  std::snprintf(buf, sizeof buf, "T%02d:%02d:%02d", static_cast<int>(s / 3600), static_cast<int>(s / 60 % 60), static_cast<int>(s % 60));
  return iso_date_text(day) + buf;
}

std::string finding_body(const Finding& f) {
  std::ostringstream o;
  o << f.message << "\nwhere: " << f.scope << "\n";
  for (const auto& e : f.evidence) o << "evidence: " << e.fact << " = " << e.value << " (" << e.source << ")\n";
  o << "fix: " << f.fix << "\n";
  o << "action: " << to_string(f.action) << "\n";
  for (const auto& s : f.sources) o << "source: " << s << "\n";
  return o.str();
}

void add_finding(pugi::xml_node suite, const RunReport& r, const Finding& f, Counts& n) {
  auto tc = suite.append_child("testcase");
  set(tc, "classname", "gpucheck." + r.command + "." + f.category);
  set(tc, "name", f.rule + " (" + f.scope + ")");
  ++n.tests;
  if (finding_fails(f, r.strict)) {
    auto failure = tc.append_child("failure");
    set(failure, "type", to_string(f.severity));
    set(failure, "message", f.title);
    failure.append_child(pugi::node_pcdata).set_value(xml_text(finding_body(f)).c_str());
    ++n.failures;
  } else {
    // A warning (without --strict) or an info: worth reading, not a failure.
    text_child(tc, "system-out", std::string(to_string(f.severity)) + ": " + f.title + "\n" + finding_body(f));
  }
}

void add_check(pugi::xml_node suite, const RunReport& r, const CheckOutcome& c, Counts& n) {
  auto tc = suite.append_child("testcase");
  set(tc, "classname", "gpucheck." + r.command + "." + c.group);
  set(tc, "name", c.name);
  ++n.tests;
  if (c.status == CheckOutcome::Status::failed) {
    set(tc.append_child("failure"), "message", c.detail);
    ++n.failures;
  } else if (c.status == CheckOutcome::Status::skipped) {
    set(tc.append_child("skipped"), "message", c.detail);
    ++n.skipped;
  }
  std::string out = c.status == CheckOutcome::Status::passed ? c.detail + "\n" : "";
  for (const auto& [k, v] : c.properties) out += k + " = " + v + "\n";
  if (!out.empty()) text_child(tc, "system-out", out);
}

}  // namespace

std::string render_junit(const RunReport& r) {
  pugi::xml_document doc;
  auto suites = doc.append_child("testsuites");
  auto suite = suites.append_child("testsuite");
  const std::string name = "gpucheck " + r.command;
  set(suites, "name", name);
  set(suite, "name", name);
  set(suite, "timestamp", iso_time(r.time));
  if (r.facts && r.facts->system.hostname) set(suite, "hostname", *r.facts->system.hostname);
  auto props = suite.append_child("properties");
  auto prop = [&](const char* k, std::string_view v) {
    auto p = props.append_child("property");
    set(p, "name", k);
    set(p, "value", v);
  };
  prop("gpucheck_version", r.version);
  prop("source", r.source);
  if (r.matrix) {
    prop("matrix_version", r.matrix->version);
    prop("matrix_date", r.matrix->date);
    prop("matrix_origin", r.matrix->origin);
  }
  prop("verdict", std::string(to_string(r.outcome)));
  prop("strict", r.strict ? "true" : "false");

  Counts n;
  add_check(suite, r, verdict_outcome(r), n);
  for (const auto& f : r.findings) add_finding(suite, r, f, n);
  for (const auto& c : r.checks) add_check(suite, r, c, n);
  for (auto node : {suites, suite}) {
    set(node, "tests", std::to_string(n.tests));
    set(node, "failures", std::to_string(n.failures));
    set(node, "errors", "0");
  }
  set(suite, "skipped", std::to_string(n.skipped));

  std::ostringstream out;
  doc.save(out, "  ", pugi::format_indent, pugi::encoding_utf8);
  return out.str();
}

}  // namespace gpucheck
