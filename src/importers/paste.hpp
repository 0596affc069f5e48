// A paste read as blocks: the lines of any text a user put into a ticket,
// the readers that recognise one tool's output each (block_*.cpp), and what
// each block read. import_report splits the paste (paste_split.cpp), lets
// every block's reader turn it into Facts, and merges them (paste_merge.cpp)
// keeping both values where two blocks disagree.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "facts/facts.hpp"
#include "util/deadline.hpp"

namespace gpucheck {

struct PasteText {
  std::string name;                     // where it came from: a path, "<stdin>"
  std::vector<std::string_view> lines;  // without their line ends; lines[0] is line 1

  // "report.txt:12" for lines[11]: the source of every fact read there.
  std::string at(std::size_t index) const { return name + ":" + std::to_string(index + 1); }
  // "report.txt:3-40 (collect_env)": a block's source where a fact has no line of its own.
  std::string span(std::size_t first, std::size_t last, std::string_view kind) const;
  std::string_view trimmed(std::size_t index) const;
  // The lines first..last joined again, for readers of whole documents.
  std::string joined(std::size_t first, std::size_t last) const;
};

PasteText paste_lines(std::string_view text, std::string name);

// What one block read.
struct BlockFacts {
  Facts facts;
  // Fact path -> the line that stated it, for values whose facts have no
  // source field of their own ("nvidia_smi.driver_version" -> "r.txt:12").
  std::map<std::string, std::string> where;
  std::vector<std::size_t> unread;  // lines of the block the reader did not understand
  std::optional<std::string> note;  // said of the block in the report
  std::optional<std::string> kind;  // a more exact kind than the reader's ("rocm-smi (concise)")
  std::vector<ReportStatement> stated;  // error kinds its lines state (error_facts.hpp)
  std::optional<OutOfMemoryStatement> out_of_memory;  // what an out-of-memory error asked for
  std::optional<PeerRateMatrix> peer_rates;           // a matrix of copy rates between GPUs
  std::optional<NcclTestRun> nccl_test;               // an nccl-tests run
  std::optional<TopoMatrix> topo;                     // an nvidia-smi topo matrix
  // The block is of its kind but could not be read (XML cut in half): the
  // import fails when no other block read anything, else it is a note.
  std::optional<Problem> problem;
};

// How surely a line opens a block of a reader's kind.
enum class Opens {
  no,
  maybe,   // only between blocks
  surely,  // a banner: it also ends the block before it
};

struct BlockReader {
  std::string_view kind;  // "collect_env", "nvidia-smi -L", …
  Opens (*opens)(const PasteText& p, std::size_t i);
  // Whether line i still belongs to the block that opened at `first`. Asked
  // for i = first + 1, first + 2, … until it says no, so a reader may assume
  // every line before i continued the block; it must not scan back to
  // `first` (that made a heading over 50,000 blank lines take 10 s).
  bool (*continues)(const PasteText& p, std::size_t first, std::size_t i);
  void (*read)(const PasteText& p, std::size_t first, std::size_t last, BlockFacts& out);
};

// The readers, in the order a tie is broken (block_readers.cpp).
const std::vector<BlockReader>& block_readers();

struct PasteBlock {
  const BlockReader* reader;
  std::size_t first, last;  // line indexes, inclusive
};

// Blank lines, Markdown code fences and shell prompts belong to no block and
// are never "not understood".
bool is_paste_filler(std::string_view trimmed_line);

// The blocks of a paste, in order; lines outside them are not understood
// (unless filler). Linear in the lines (each reader looks ahead a few lines
// at most). `stopped_at` is the line it reached when the deadline passed.
struct PasteSplit {
  std::vector<PasteBlock> blocks;
  std::optional<std::size_t> stopped_at;
};
PasteSplit split_paste(const PasteText& p, const Deadline& deadline);

// Merges `from` into `into`; a value `into` already holds differently is a
// conflict (kept in `conflicts`, the fact keeps the first value).
// `into_where` collects the sources of the values taken; `block_source` is
// the block's span, the source of a value its reader gave no line for.
// Adds a stated error kind unless one of the same kind is there: each kind
// once, cited by the first line that states it.
void add_statement(std::vector<ReportStatement>& to, const ReportStatement& statement);

void merge_block_facts(Facts& into, std::map<std::string, std::string>& into_where, BlockFacts&& from,
                       std::vector<ReportConflict>& conflicts, const std::string& block_source);

}  // namespace gpucheck
