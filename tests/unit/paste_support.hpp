// A paste's facts as `check --from` imports them; the test fails with the
// importer's reason when the text is refused.
#pragma once

#include <catch2/catch.hpp>

#include <string>

#include "importers/import_report.hpp"

namespace gpucheck::test {

inline Facts paste(const std::string& text) {
  auto r = import_report(text, "paste.txt");
  if (!r) FAIL(r.problem().detail);
  return r.value().facts;
}

}  // namespace gpucheck::test
