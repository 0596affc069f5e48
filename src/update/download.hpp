// One bounded download with libcurl: the only network code in gpucheck, and
// only `gpucheck matrix update` calls it. HTTPS (and HTTP, whose bytes the
// signature protects all the same) or file:// for a local mirror; redirects
// only to HTTP(S); the proxy variables (https_proxy, http_proxy, no_proxy)
// honoured as curl honours them; a deadline and a size limit on everything.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

#include "util/result.hpp"

namespace gpucheck {

struct DownloadRequest {
  std::string url;
  std::optional<std::string> etag;  // sent as If-None-Match
  std::string ca_file;              // --cacert: the CAs to trust instead of the system's
  std::chrono::milliseconds timeout{30000};  // the whole transfer, connect included
  std::size_t max_bytes = 0;
};

struct Download {
  bool not_modified = false;  // 304: what the ETag named is still current
  std::string body;
  std::string etag;           // the final response's, "" when none
};

// A Problem's where is the URL; its reason is timed_out for the deadline,
// absent for 404 (or a missing file://), failed for the rest, with curl's
// or the server's words.
Result<Download> download(const DownloadRequest& request);

}  // namespace gpucheck
