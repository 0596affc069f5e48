// The values options take, each checked with a message that says what was
// expected and what came (CLI11 puts the option's name before it):
// `--gpus: expected a whole number of at least 1, got "0"`.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace gpucheck {

CLI::Validator whole_number(long lo, long hi);
// Seconds, typed with a unit or without one (util/duration.hpp: 30, 30s,
// 500ms, 2m, 1h); the text is replaced by the seconds, which the option's
// number reads. `lo_open`: the value must be more than `lo`, not equal to it.
CLI::Validator duration_within(double lo, double hi, bool lo_open = false);
// One of `names`, with the one meant when a name is close to one of them.
// Its description ("{a,b}") is where completions find the choices.
CLI::Validator one_of(std::vector<std::string> names);

// "0.1 s", "10 min", "1 h": a bound as a person writes it.
std::string duration_text(double seconds);

}  // namespace gpucheck
