// Small string helpers shared by the parsers.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpucheck {

std::string_view trim(std::string_view s);
std::vector<std::string_view> split(std::string_view s, char sep);
std::vector<std::string_view> split_lines(std::string_view s);
bool starts_with(std::string_view s, std::string_view prefix);
std::string to_lower(std::string_view s);
std::string to_upper(std::string_view s);
// Letters and digits alone, lower-cased: "Llama-2-70b-hf" and "llama 2 70B HF"
// are one name ("llama270bhf").
std::string alnum_key(std::string_view s);
std::optional<long long> parse_int(std::string_view s, int base = 10);
// "line 3, column 5" (both from 1, the column in bytes): where byte `byte`
// of text is, for a message.
std::string line_and_column(std::string_view text, std::size_t byte);
// An index, count or reading taken from text into an int: nullopt unless it
// parses and lies in [lo, hi] (a GPU index of 10^20 is no GPU).
std::optional<int> parse_int_in(std::string_view s, int lo, int hi);
std::optional<double> parse_double(std::string_view s);
// True when every byte is printable ASCII or common whitespace: /proc and
// sysfs files are text, so anything else means the read went wrong.
bool is_text(std::string_view s);
std::string join(const std::vector<std::string>& parts, std::string_view sep);
// "1 node", "3 nodes": a count and its word, plural when it is not one.
std::string plural(std::size_t n, std::string_view word);
// "x16": how lspci and nvidia-smi write a PCIe link's width.
std::string lanes_text(long long lanes);
// " (x)" after a name; " (from report)" stays as it is, not "((from report))".
std::string parenthesized(std::string_view s);
// At most `max` bytes: when longer, cut after the last whole word that fits
// (and the punctuation before it), then "..."; a single word longer than
// that is cut, but never inside a UTF-8 character. A reason Slurm or a log keeps.
std::string fit_on_words(std::string_view s, std::size_t max);

}  // namespace gpucheck
