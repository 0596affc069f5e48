// What `gpucheck fleet` prints: the nodes failing each finding, each skew
// field's majority and the nodes off it, and the reports it could not read;
// as text, JSON (gpucheck.fleet/1, docs/fleet.md), Markdown, one line for
// a launcher, or a node_exporter textfile.
#pragma once

#include <cstdint>
#include <string>

#include "fleet/fleet_summary.hpp"

namespace gpucheck {

std::string render_fleet_text(const FleetSummary& s);
std::string render_fleet_json(const FleetSummary& s, const std::string& gpucheck_version);
std::string render_fleet_markdown(const FleetSummary& s);
// "PASS: 64 nodes", or "FAIL: 3 of 64 nodes fail (node07: Xid 79 …); …",
// at most kOnelineMax bytes (machine_formats.hpp).
std::string render_fleet_oneline(const FleetSummary& s);
// The fleet's counts, each finding's and each skewed field's number of
// nodes, named by the node they are about; `time`: seconds since 1970.
std::string render_fleet_prometheus(const FleetSummary& s, const std::string& gpucheck_version, std::int64_t time);

}  // namespace gpucheck
