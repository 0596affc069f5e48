// The command line's one entry point, apart from app.hpp so that main.cpp
// does not compile CLI11.
#pragma once

namespace gpucheck {

// Parses argv, runs the subcommand, returns the exit code (docs/exit-codes.md).
int run_app(int argc, char** argv);

}  // namespace gpucheck
