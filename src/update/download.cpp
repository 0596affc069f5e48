#include "update/download.hpp"

#include <algorithm>
#include <memory>

#include "update/curl_library.hpp"

namespace gpucheck {
namespace {

struct Transfer {
  std::string body;
  std::string etag;
  std::size_t max_bytes = 0;
  bool too_large = false;
};

std::size_t on_body(char* data, std::size_t size, std::size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const std::size_t len = size * n;
  if (t->body.size() + len > t->max_bytes) {
    t->too_large = true;
    return 0;  // curl stops with CURLE_WRITE_ERROR
  }
  t->body.append(data, len);
  return len;
}

// Each response (a redirect's too) starts with its status line, so the ETag
// kept is the final response's.
std::size_t on_header(char* data, std::size_t size, std::size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const std::string_view line(data, size * n);
  if (line.rfind("HTTP/", 0) == 0) t->etag.clear();
  constexpr std::string_view kName = "etag:";
  if (line.size() > kName.size()) {
    std::string head(line.substr(0, kName.size()));
    std::transform(head.begin(), head.end(), head.begin(), [](unsigned char c) { return std::tolower(c); });
    if (head == kName) {
      std::string_view v = line.substr(kName.size());
      while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
      while (!v.empty() && (v.back() == '\r' || v.back() == '\n' || v.back() == ' ')) v.remove_suffix(1);
      // An ETag goes back in a header: never one that could add a line.
      if (v.size() <= 256 && v.find_first_of("\r\n") == std::string_view::npos) t->etag = std::string(v);
    }
  }
  return size * n;
}

std::string kilobytes(std::size_t n) { return std::to_string(n / 1024) + " KiB"; }

}  // namespace

Result<Download> download(const DownloadRequest& request) {
  const std::string& url = request.url;
  auto library = curl_library();
  if (!library) return library.problem();
  const CurlLibrary& lib = **library;
  auto cleanup = [&lib](CURL* c) { lib.easy_cleanup(c); };
  std::unique_ptr<CURL, decltype(cleanup)> curl(lib.easy_init(), cleanup);
  if (!curl) return Problem{Reason::failed, url, "cannot start libcurl"};
  CURL* c = curl.get();
  Transfer t;
  t.max_bytes = request.max_bytes;
  char error[CURL_ERROR_SIZE] = {};
  const long timeout_ms = static_cast<long>(std::max<std::chrono::milliseconds::rep>(1, request.timeout.count()));
  lib.easy_setopt(c, CURLOPT_URL, url.c_str());
  lib.easy_setopt(c, CURLOPT_ERRORBUFFER, error);
  // A server may send us elsewhere on the web, never onto this machine's
  // files; a libcurl too old to be told so (before 7.85, as in Ubuntu 22.04)
  // is not used at all rather than used unrestricted.
  if (lib.easy_setopt(c, CURLOPT_PROTOCOLS_STR, "https,http,file") != CURLE_OK ||
      lib.easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "https,http") != CURLE_OK)
    return Problem{Reason::failed, url,
                   std::string("this libcurl (") + lib.version() + ") cannot restrict protocols; matrix updates need libcurl 7.85 or newer"};
  lib.easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
  lib.easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
  lib.easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout_ms);
  lib.easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, std::min(timeout_ms, 10000L));
  // No signals: the deadline must not depend on SIGALRM reaching this thread.
  lib.easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  lib.easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(request.max_bytes));
  lib.easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
  lib.easy_setopt(c, CURLOPT_WRITEDATA, &t);
  lib.easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
  lib.easy_setopt(c, CURLOPT_HEADERDATA, &t);
  lib.easy_setopt(c, CURLOPT_USERAGENT, "gpucheck-matrix-update/1");
  if (!request.ca_file.empty()) lib.easy_setopt(c, CURLOPT_CAINFO, request.ca_file.c_str());
  auto free_list = [&lib](curl_slist* l) { lib.slist_free_all(l); };
  std::unique_ptr<curl_slist, decltype(free_list)> headers(nullptr, free_list);
  if (request.etag && !request.etag->empty()) {
    headers.reset(lib.slist_append(nullptr, ("If-None-Match: " + *request.etag).c_str()));
    lib.easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());
  }

  const CURLcode rc = lib.easy_perform(c);
  long status = 0;
  lib.easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
  const std::string said = error[0] ? error : lib.easy_strerror(rc);
  if (t.too_large || rc == CURLE_FILESIZE_EXCEEDED)
    return Problem{Reason::failed, url, "larger than the limit of " + kilobytes(request.max_bytes) + "; refused"};
  if (rc == CURLE_OPERATION_TIMEDOUT)
    return Problem{Reason::timed_out, url, "no complete answer within " + std::to_string(timeout_ms) + " ms (" + said + ")"};
  if (rc == CURLE_PARTIAL_FILE)
    return Problem{Reason::failed, url, "the transfer ended early, after " + std::to_string(t.body.size()) + " bytes (" + said + ")"};
  if (rc == CURLE_TOO_MANY_REDIRECTS) return Problem{Reason::failed, url, "too many redirects (" + said + ")"};
  if (rc == CURLE_UNSUPPORTED_PROTOCOL)
    return Problem{Reason::failed, url, "not an https://, http:// or file:// URL, or a redirect to one that is not "
                                        "http(s) (" + said + ")"};
  if (rc == CURLE_FILE_COULDNT_READ_FILE) return Problem{Reason::absent, url, said};
  if (rc != CURLE_OK) return Problem{Reason::failed, url, said};
  Download out;
  if (status == 304) {
    out.not_modified = true;
    out.etag = request.etag.value_or("");
    return out;
  }
  // file:// answers 0; HTTP must answer 200.
  if (status != 0 && status != 200)
    return Problem{status == 404 ? Reason::absent : Reason::failed, url, "the server answered HTTP " + std::to_string(status)};
  out.body = std::move(t.body);
  out.etag = std::move(t.etag);
  return out;
}

}  // namespace gpucheck
