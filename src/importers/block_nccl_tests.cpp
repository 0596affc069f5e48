// A run of an nccl-tests binary (all_reduce_perf, all_gather_perf, …): its
// "# nThread 1 nGpus 8 … validation: 1" line, the devices ("#  Rank  0 …
// device  0 [0x18] NVIDIA H100 80GB HBM3"), the table whose "#wrong"
// columns count the values each size got wrong, "# Out of bounds values :
// 0 OK" (or "56 FAILED") and "# Avg bus bandwidth : 123.4". Versions before
// the #wrong column printed the largest error instead ("error 1e-07"), not a
// count: their out-of-bounds line alone says what validation found. A run
// with "validation: 0", or cut before either, validated nothing. Into
// report.nccl_tests.
#include "importers/block_readers.hpp"
#include "importers/block_util.hpp"
#include "util/strings.hpp"

namespace gpucheck {

namespace {

// Without its leading '#' (older versions print none).
std::string_view body(std::string_view t) { return trim(starts_with(t, "#") ? t.substr(1) : t); }

bool first_line(std::string_view t) {
  const auto b = body(t);
  return starts_with(b, "nThread ") && b.find(" nGpus ") != std::string_view::npos;
}

// A row of the table: the size, then numbers and words.
bool data_row(std::string_view t) {
  const auto w = words_of(t);
  return w.size() >= 6 && parse_int_in(w[0], 0, 2147483647) && parse_int_in(w[1], 0, 2147483647);
}

Opens opens(const PasteText& p, std::size_t i) { return first_line(p.trimmed(i)) ? Opens::surely : Opens::no; }

bool continues(const PasteText& p, std::size_t, std::size_t i) {
  const auto t = p.trimmed(i);
  if (first_line(t)) return false;  // the next run
  return starts_with(t, "#") || data_row(t) || starts_with(t, "Rank ") || starts_with(t, "Using devices") ||
         starts_with(t, "----") || starts_with(t, "Out of bounds values") || starts_with(t, "Avg bus bandwidth");
}

// "Out of bounds values : 56 FAILED" -> 56; "Avg bus bandwidth    : 123.4" -> 123.4.
std::optional<double> value_after_colon(std::string_view b) {
  const auto colon = b.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  const auto w = words_of(b.substr(colon + 1));
  return w.empty() ? std::nullopt : parse_double(w[0]);
}

void read(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out) {
  NcclTestRun run;
  run.source = p.span(first, last, "nccl-tests");
  run.validated = p.trimmed(first).find("validation: 0") == std::string_view::npos;
  std::vector<std::size_t> wrong_columns;
  int ranks = 0;
  for (std::size_t k = first + 1; k <= last; ++k) {
    const auto t = p.trimmed(k);
    const auto b = body(t);
    if (starts_with(b, "Rank ")) {
      ++ranks;
    } else if (starts_with(b, "size ")) {
      const auto w = words_of(b);
      wrong_columns.clear();
      for (std::size_t i = 0; i < w.size(); ++i)
        if (w[i] == "#wrong") wrong_columns.push_back(i);
    } else if (starts_with(b, "Out of bounds values")) {
      if (auto v = value_after_colon(b); v && *v >= 0 && *v < 1e18) run.out_of_bounds = static_cast<std::uint64_t>(*v);
    } else if (starts_with(b, "Avg bus bandwidth")) {
      if (auto v = value_after_colon(b); v && *v >= 0 && *v < 1e9) run.avg_busbw_gbs = v;
    } else if (!starts_with(t, "#") && data_row(t)) {
      const auto w = words_of(t);
      for (auto c : wrong_columns)
        if (c < w.size())
          if (auto n = parse_int_in(w[c], 0, 2147483647)) run.wrong += static_cast<std::uint64_t>(*n);
    }
  }
  run.validated = run.validated && (run.out_of_bounds || !wrong_columns.empty());
  if (ranks > 0) run.gpus = ranks;
  std::string note = "nccl-tests";
  if (run.gpus) note += " on " + std::to_string(*run.gpus) + " GPU(s)";
  if (!run.validated) note += ", its data not validated";
  else if (run.out_of_bounds) note += ", " + std::to_string(*run.out_of_bounds) + " values out of bounds";
  out.note = note;
  out.nccl_test = std::move(run);
}

}  // namespace

BlockReader nccl_tests_reader() { return {"nccl-tests", opens, continues, read}; }

}  // namespace gpucheck
