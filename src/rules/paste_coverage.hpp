// A paste is judged on what it shows: which of the facts every verdict
// needs (a GPU, its driver, a framework) a `--from` paste does not show.
#pragma once

#include <vector>

#include "facts/facts.hpp"
#include "rules/outcome.hpp"

namespace gpucheck {

// Empty for a host, a snapshot or gpucheck's own JSON (each a whole probe,
// where "none" was looked for); for a paste, what is missing from it.
std::vector<NotShown> not_shown_by(const Facts& f);

}  // namespace gpucheck
