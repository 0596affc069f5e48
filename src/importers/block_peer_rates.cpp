// Matrices of copy rates between GPUs, as two tools print them:
// CUDA's p2pBandwidthLatencyTest ("Unidirectional P2P=Enabled Bandwidth
// (P2P Writes) Matrix (GB/s)", a "D\D" header, one row a GPU, the diagonal
// the GPU's own memory) and nvbandwidth ("Running <test>.", "memcpy CE
// GPU(row) -> GPU(column) bandwidth (GB/s)", rows with N/A on the diagonal,
// "SUM <test> <total>"). Latency matrices and CPU rows are not rates between
// GPUs and are left to others. Each matrix is read into the report's
// peer_rates (docs/topology.md).
#include "facts/fact_limits.hpp"
#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

// The heading of a matrix of GB/s between GPUs, of either tool.
bool p2p_heading(std::string_view t) {
  return (starts_with(t, "Unidirectional P2P=") || starts_with(t, "Bidirectional P2P=")) && t.find("Matrix (GB/s)") != std::string_view::npos;
}
bool nvbandwidth_heading(std::string_view t) {
  return starts_with(t, "memcpy ") && t.find(" GPU(row) ") != std::string_view::npos &&
         t.find(" GPU(column) bandwidth (GB/s)") != std::string_view::npos;
}
bool heading(std::string_view t) { return p2p_heading(t) || nvbandwidth_heading(t); }

// nvbandwidth's "Running device_to_device_memcpy_read_ce." before its matrix.
bool running(std::string_view t) { return starts_with(t, "Running ") && !t.empty() && t.back() == '.'; }

// A header of column numbers ("D\D 0 1 2", or "0 1 2") or a row ("3 22.24 N/A …").
bool header_or_row(std::string_view t) {
  const auto w = words_of(t);
  if (w.empty()) return false;
  std::size_t i = w[0] == "D\\D" ? 1 : 0;
  if (i == w.size()) return false;
  for (; i < w.size(); ++i)
    if (w[i] != "N/A" && !parse_double(w[i])) return false;
  return true;
}

Opens opens(const PasteText& p, std::size_t i) {
  const auto t = p.trimmed(i);
  if (heading(t)) return Opens::surely;
  return running(t) && i + 1 < p.lines.size() && nvbandwidth_heading(p.trimmed(i + 1)) ? Opens::surely : Opens::no;
}

bool continues(const PasteText& p, std::size_t first, std::size_t i) {
  const auto t = p.trimmed(i);
  if (i == first + 1 && heading(t)) return true;  // after "Running …."
  if (t.empty()) return i + 1 < p.lines.size() && starts_with(p.trimmed(i + 1), "SUM ");  // nvbandwidth's total
  return header_or_row(t) || starts_with(t, "SUM ");
}

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  PeerRateMatrix m;
  std::size_t k = first;
  std::string test;
  if (running(p.trimmed(k))) {
    const auto t = p.trimmed(k);
    test = "nvbandwidth: " + std::string(t.substr(8, t.size() - 9));
    ++k;
  }
  const auto head = p.trimmed(k);
  if (p2p_heading(head)) {
    m.test = "p2pBandwidthLatencyTest: " + std::string(head.substr(0, head.find(" (GB/s)")));
    m.peer_access = head.find("P2P=Disabled") == std::string_view::npos;
    m.bidirectional = starts_with(head, "Bidirectional");
  } else {
    m.test = test.empty() ? "nvbandwidth: " + std::string(head.substr(0, head.find(" bandwidth"))) : test;
    m.bidirectional = head.find("<->") != std::string_view::npos;
  }
  // "GPU(row) <- GPU(column)": the data goes from the column's GPU to the row's.
  const bool column_to_row = head.find(" <- ") != std::string_view::npos;
  std::vector<int> columns;
  for (++k; k <= last; ++k) {
    const auto t = p.trimmed(k);
    const auto w = words_of(t);
    if (starts_with(t, "SUM ") || w.empty()) continue;
    if (columns.empty() || w[0] == "D\\D") {
      columns.clear();
      for (std::size_t i = w[0] == "D\\D" ? 1 : 0; i < w.size() && columns.size() < kMaxPeerRateGpus; ++i)
        if (auto c = parse_int_in(w[i], 0, 1 << 20)) columns.push_back(*c);
        else out.unread.push_back(k);
      continue;
    }
    const auto row = parse_int_in(w[0], 0, 1 << 20);
    if (!row) {
      out.unread.push_back(k);
      continue;
    }
    for (std::size_t i = 1; i < w.size() && i - 1 < columns.size(); ++i) {
      const int column = columns[i - 1];
      const auto gbs = parse_double(w[i]);
      if (!gbs || column == *row || *gbs < 0 || *gbs > 1e6) continue;  // N/A, the GPU itself, nonsense
      if (m.rates.size() < kMaxPeerRateGpus * (kMaxPeerRateGpus - 1))
        m.rates.push_back(column_to_row ? PeerRate{column, *row, *gbs} : PeerRate{*row, column, *gbs});
    }
  }
  m.source = p.span(first, last, m.test);
  out.note = m.test + ": " + std::to_string(m.rates.size()) + " rates between GPUs" +
             (m.peer_access ? "" : " (peer access off: copies staged through host memory)");
  out.peer_rates = std::move(m);
}

}  // namespace

BlockReader peer_rates_reader() { return {"GPU-to-GPU bandwidth matrix", opens, continues, read}; }

}  // namespace gpucheck
