// What `gpucheck fleet` prints: the nodes failing each finding, each skew
// field's majority and the nodes off it, and the reports it could not read;
// as text, JSON (gpucheck.fleet/1, docs/fleet.md) or Markdown.
#pragma once

#include <string>

#include "fleet/fleet_summary.hpp"

namespace gpucheck {

std::string render_fleet_text(const FleetSummary& s);
std::string render_fleet_json(const FleetSummary& s, const std::string& gpucheck_version);
std::string render_fleet_markdown(const FleetSummary& s);

}  // namespace gpucheck
