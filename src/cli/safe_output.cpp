#include "cli/safe_output.hpp"

#include <cerrno>
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
  if (out_.empty()) return;
  const int caller_errno = errno;  // a message being written may still read it (strerror(errno))
  errno = 0;
  if (target_->sputn(out_.data(), static_cast<std::streamsize>(out_.size())) != static_cast<std::streamsize>(out_.size())) fail();
  errno = caller_errno;
}

void TerminalSafeBuffer::flush_target() {
  const int caller_errno = errno;
  errno = 0;
  if (target_->pubsync() != 0) fail();
  errno = caller_errno;
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
  flush_target();
  return error_ ? -1 : 0;
}

void TerminalSafeBuffer::finish() {
  drain(true);
  flush_target();
}

// The first failure's errno (the caller cleared it just before), kept before
// later calls overwrite it; EIO where the write set none.
void TerminalSafeBuffer::fail() {
  if (!error_) error_ = errno ? errno : EIO;
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

int SafeStandardStreams::finish_output() {
  std::cout.flush();
  out_.finish();
  if (out_.error()) return out_.error();
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) return errno ? errno : EIO;
  return 0;
}

void SafeStandardStreams::keep_colour(bool keep) {
  out_.keep_colour(keep);
  err_.keep_colour(keep);
}

}  // namespace gpucheck
