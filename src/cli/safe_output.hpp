// Standard output and standard error, made safe for a terminal and a JSON
// reader at the one place every report and message leaves the program: a
// report's bytes came from hosts and files gpucheck does not own
// (report/terminal.hpp says what is escaped).
#pragma once

#include <array>
#include <ostream>
#include <streambuf>
#include <string>

namespace gpucheck {

class TerminalSafeBuffer : public std::streambuf {
 public:
  explicit TerminalSafeBuffer(std::streambuf* target);
  ~TerminalSafeBuffer() override;
  TerminalSafeBuffer(const TerminalSafeBuffer&) = delete;
  TerminalSafeBuffer& operator=(const TerminalSafeBuffer&) = delete;
  // Style's colour sequences pass only when the CLI chose colour.
  void keep_colour(bool keep) { keep_colour_ = keep; }
  // Writes what is held back, a split character included.
  void finish();
  // Whether every byte reached the target.
  bool failed() const { return failed_; }

 protected:
  int_type overflow(int_type c) override;
  int sync() override;

 private:
  void drain(bool at_end);
  std::streambuf* target_;
  bool keep_colour_ = false;
  bool failed_ = false;
  std::string held_;  // bytes not yet decided: a character or sequence split between writes
  std::string out_;
  std::array<char, 4096> buffer_{};
};

// Installs a TerminalSafeBuffer on std::cout and std::cerr for its lifetime.
class SafeStandardStreams {
 public:
  SafeStandardStreams();
  ~SafeStandardStreams();
  SafeStandardStreams(const SafeStandardStreams&) = delete;
  SafeStandardStreams& operator=(const SafeStandardStreams&) = delete;
  void keep_colour(bool keep);
  // Writes out what standard output holds: false when any of it could not
  // be written (a full disk, a closed pipe with SIGPIPE ignored), errno
  // saying why. A report that did not arrive is no verdict.
  bool finish_output();

 private:
  std::streambuf* cout_target_;
  std::streambuf* cerr_target_;
  TerminalSafeBuffer out_, err_;
};

}  // namespace gpucheck
