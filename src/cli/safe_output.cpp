#include "cli/safe_output.hpp"

#include <cstdio>

#include <iostream>

#include "report/terminal.hpp"

namespace gpucheck {

TerminalSafeBuffer::TerminalSafeBuffer(std::streambuf* target) : target_(target) {
  setp(buffer_.data(), buffer_.data() + buffer_.size());
}

TerminalSafeBuffer::~TerminalSafeBuffer() { finish(); }

void TerminalSafeBuffer::drain(bool at_end) {
  held_.append(pbase(), pptr());
  setp(buffer_.data(), buffer_.data() + buffer_.size());
  out_.clear();
  const std::size_t used = terminal_safe(held_, keep_colour_, at_end, out_);
  held_.erase(0, used);
  if (!out_.empty() && target_->sputn(out_.data(), static_cast<std::streamsize>(out_.size())) != static_cast<std::streamsize>(out_.size()))
    failed_ = true;
}

TerminalSafeBuffer::int_type TerminalSafeBuffer::overflow(int_type c) {
  drain(false);
  if (!traits_type::eq_int_type(c, traits_type::eof())) {
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
  }
  return traits_type::not_eof(c);
}

int TerminalSafeBuffer::sync() {
  drain(false);
  if (target_->pubsync() != 0) failed_ = true;
  return failed_ ? -1 : 0;
}

void TerminalSafeBuffer::finish() {
  drain(true);
  if (target_->pubsync() != 0) failed_ = true;
}

SafeStandardStreams::SafeStandardStreams()
    : cout_target_(std::cout.rdbuf()), cerr_target_(std::cerr.rdbuf()), out_(cout_target_), err_(cerr_target_) {
  std::cout.rdbuf(&out_);
  std::cerr.rdbuf(&err_);
}

SafeStandardStreams::~SafeStandardStreams() {
  std::cout.flush();
  std::cerr.flush();
  out_.finish();
  err_.finish();
  std::cout.rdbuf(cout_target_);
  std::cerr.rdbuf(cerr_target_);
}

bool SafeStandardStreams::finish_output() {
  std::cout.flush();
  out_.finish();
  return !out_.failed() && std::fflush(stdout) == 0 && !std::ferror(stdout);
}

void SafeStandardStreams::keep_colour(bool keep) {
  out_.keep_colour(keep);
  err_.keep_colour(keep);
}

}  // namespace gpucheck
