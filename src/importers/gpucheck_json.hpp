// gpucheck's own JSON (`gpucheck probe --json`, schema docs/facts-schema.md)
// read back into Facts: the exact inverse of the writers in src/facts/.
#pragma once

#include <string_view>

#include "facts/facts.hpp"
#include "importers/json_reader.hpp"

namespace gpucheck {

// Errors (Reason::malformed, where = name): not JSON (with the byte offset),
// not an object, a "schema" other than kFactsSchema, or a value of the wrong
// type (with its JSON path).
Result<Facts> facts_from_json(std::string_view text, std::string_view name);

// The software subtree ("software"), read by gpucheck_json_software.cpp.
SoftwareFacts read_software(JsonReader& r, const JsonReader::Node& n);
// The kernel checks ("kernels"), read by gpucheck_json_kernels.cpp.
KernelFacts read_kernels(JsonReader& r, const JsonReader::Node& n);
// The links' subtrees, read by gpucheck_json_links.cpp: a PCI device's
// "link" and "path", "iommu", "network", "nvlink".
PciLink read_pci_link(JsonReader& r, const JsonReader::Node& n);
PciPath read_pci_path(JsonReader& r, const JsonReader::Node& n);
IommuFacts read_iommu(JsonReader& r, const JsonReader::Node& n);
NetworkFacts read_network(JsonReader& r, const JsonReader::Node& n);
NvLinkFacts read_nvlink(JsonReader& r, const JsonReader::Node& n);

}  // namespace gpucheck
