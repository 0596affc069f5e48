// The sys.path a Python environment's jobs start with: the question put to
// an interpreter, and the same answer worked out from files, so that a plain
// check runs no interpreter (starting one costs 20-300 ms, most of a run).
#pragma once

#include <string>

#include "host/host.hpp"
#include "parse/sys_path_answer.hpp"
#include "util/result.hpp"

namespace gpucheck {

// The program `python -S -c` runs to answer (parse_interpreter_answer reads
// the answer). Its text is also the snapshot key of the recorded answers.
extern const char* const kSysPathQuestion;

// What the interpreter would answer to kSysPathQuestion, from its files, as
// CPython 3's getpath and site.py work on POSIX: pyvenv.cfg, the stdlib
// landmark above the executable, site.py's site-packages rules (upstream's
// or Debian's dist-packages), the user site, .pth path lines, PYTHONPATH,
// PYTHONHOME, PYTHONUSERBASE, PYTHONNOUSERSITE. A layout whose rules are not
// known here (a wrapper script, Python 2, a free-threaded or lib64 build, a
// distribution's own site.py patches, a relative PYTHONPATH entry) is a
// Problem saying why: the caller asks the interpreter instead. The version is
// pyvenv.cfg's, else the C headers' patchlevel.h, else (Debian) its
// package's, else the X.Y of the executable's name.
Result<InterpreterAnswer> sys_path_from_files(const Host& h, const std::string& interpreter);

}  // namespace gpucheck
