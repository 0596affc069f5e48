// Splitting a paste into blocks. Each line is offered to every reader; the
// surest opener wins (ties: the registry's order). A block runs while its
// reader says the line continues it, and ends at a banner of any kind, a
// code fence, or a line it does not continue. Readers look ahead a few lines
// at most, so the split is linear in the paste.
#include "importers/paste.hpp"

#include "util/strings.hpp"

namespace gpucheck {

PasteText paste_lines(std::string_view text, std::string name) {
  PasteText p{std::move(name), {}};
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto end = text.find('\n', start);
    auto line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    // A reply's Markdown quote ("> text", "> > text", a bare ">") is read as
    // the text quoted; Python's ">>> " prompt is no quote.
    while (line == ">" || starts_with(line, "> ")) line.remove_prefix(line.size() == 1 ? 1 : 2);
    if (end == std::string_view::npos) {
      if (!line.empty()) p.lines.push_back(line);
      break;
    }
    p.lines.push_back(line);
    start = end + 1;
  }
  return p;
}

std::string PasteText::span(std::size_t first, std::size_t last, std::string_view kind) const {
  std::string s = name + ":" + std::to_string(first + 1);
  if (last != first) s.append("-").append(std::to_string(last + 1));
  return s.append(" (").append(kind).append(")");
}

std::string_view PasteText::trimmed(std::size_t index) const { return index < lines.size() ? trim(lines[index]) : std::string_view{}; }

std::string PasteText::joined(std::size_t first, std::size_t last) const {
  std::string out;
  for (std::size_t i = first; i <= last && i < lines.size(); ++i) out.append(lines[i]).append("\n");
  return out;
}

namespace {

// "```", "```python": a fence; "```ImportError: … ```" on one line is the text inside it.
bool is_fence(std::string_view t) {
  if (!starts_with(t, "```") && !starts_with(t, "~~~")) return false;
  const auto info = t.substr(3);
  return info.find(' ') == std::string_view::npos || info.find("```") == std::string_view::npos;
}

// "user@host:~/dir$ nvidia-smi", "root@node:~# ixsmi": a shell prompt and
// the command it ran; the command's output follows.
bool is_shell_prompt(std::string_view t) {
  if (starts_with(t, "$ ") || t == "$" || starts_with(t, "PS C:\\") || starts_with(t, "C:\\>")) return true;
  const auto at = t.find('@');
  if (at == std::string_view::npos || at == 0 || at > 40 || t.substr(0, at).find(' ') != std::string_view::npos) return false;
  const auto colon = t.find(':', at);
  if (colon == std::string_view::npos) return false;
  const auto end = t.find_first_of("$#", colon);
  return end != std::string_view::npos && end < 120 && (end + 1 == t.size() || t[end + 1] == ' ');
}

}  // namespace

bool is_paste_filler(std::string_view t) {
  return t.empty() || is_fence(t) || is_shell_prompt(t) || starts_with(t, "<details") || starts_with(t, "</details") ||
         starts_with(t, "<summary") || t == "_No response_";
}

PasteSplit split_paste(const PasteText& p, const Deadline& deadline) {
  const auto& readers = block_readers();
  PasteSplit split;
  auto& blocks = split.blocks;
  const std::size_t n = p.lines.size();
  // The surest opener of line i (nullptr: none), and how sure it is.
  auto opener = [&](std::size_t i, Opens& how) -> const BlockReader* {
    const BlockReader* best = nullptr;
    how = Opens::no;
    for (auto& r : readers) {
      const Opens o = r.opens(p, i);
      if (o > how) {
        how = o;
        best = &r;
        if (o == Opens::surely) break;
      }
    }
    return best;
  };
  std::size_t i = 0;
  std::size_t next_look = 0;  // the clock is read every 4096 lines, not every line
  while (i < n) {
    if (i >= next_look) {
      if (deadline.expired()) {
        split.stopped_at = i;
        return split;
      }
      next_look = i + 4096;
    }
    const auto t = p.trimmed(i);
    if (is_paste_filler(t)) {
      ++i;
      continue;
    }
    Opens how;
    const BlockReader* r = opener(i, how);
    if (!r) {
      ++i;
      continue;
    }
    std::size_t last = i;
    for (std::size_t j = i + 1; j < n; ++j) {
      const auto tj = p.trimmed(j);
      if (is_fence(tj) || is_shell_prompt(tj)) break;
      if (!tj.empty()) {
        Opens other;
        const BlockReader* o = opener(j, other);
        // A banner ends the block, unless it is its own reader's and the
        // reader keeps it (collect_env's first key after its banner line).
        if (other == Opens::surely && (o != r || !r->continues(p, i, j))) break;
      }
      if (!r->continues(p, i, j)) break;
      if (!tj.empty()) last = j;
    }
    blocks.push_back(PasteBlock{r, i, last});
    i = last + 1;
  }
  return split;
}

}  // namespace gpucheck
