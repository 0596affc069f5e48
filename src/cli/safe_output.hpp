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
  // 0 when every byte reached the target, else the errno of the first write that failed.
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override;
  int sync() override;

 private:
  void drain(bool at_end);
  void flush_target();
  void fail();
  std::streambuf* target_;
  bool keep_colour_ = false;
  int error_ = 0;
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
  // Writes out what standard output holds: 0, or the errno of the first
  // write that failed (a full disk, a closed pipe with SIGPIPE ignored). A
  // report that did not arrive is no verdict.
  int finish_output();

 private:
  std::streambuf* cout_target_;
  std::streambuf* cerr_target_;
  TerminalSafeBuffer out_, err_;
};

}  // namespace gpucheck
