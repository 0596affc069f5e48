#include "update/curl_library.hpp"

#include "host/dynamic_library.hpp"

namespace gpucheck {
namespace {

// Debian's libcurl4 (OpenSSL) first, then the GnuTLS build of the same API.
const std::vector<std::string> kCandidates = {"libcurl.so.4", "libcurl-gnutls.so.4"};

Result<CurlLibrary> open_curl() {
  // Never closed, not even at exit: a static's destructor would unmap the
  // library before the sanitizers' and atexit handlers that still reach
  // into it (LeakSanitizer crashed so), and it is needed to the end anyway.
  static DynamicLibrary* library = nullptr;
  auto opened = DynamicLibrary::open(kCandidates);
  if (!opened)
    return Problem{Reason::absent, "libcurl.so.4",
                   "matrix updates need libcurl 7.85 or newer (Debian and Ubuntu: apt install libcurl4): " +
                       opened.problem().detail};
  library = new DynamicLibrary(std::move(opened).value());
  CurlLibrary c{};
  bool all = true;
  const auto bind = [&](auto& fn, const char* name) { all = library->bind(fn, name) && all; };
  bind(c.global_init, "curl_global_init");
  bind(c.easy_init, "curl_easy_init");
  bind(c.easy_setopt, "curl_easy_setopt");
  bind(c.easy_perform, "curl_easy_perform");
  bind(c.easy_getinfo, "curl_easy_getinfo");
  bind(c.easy_strerror, "curl_easy_strerror");
  bind(c.easy_cleanup, "curl_easy_cleanup");
  bind(c.slist_append, "curl_slist_append");
  bind(c.slist_free_all, "curl_slist_free_all");
  bind(c.version, "curl_version");
  if (!all) return Problem{Reason::malformed, library->opened(), "lacks curl_easy_* functions it should have: not libcurl"};
  if (c.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
    return Problem{Reason::failed, library->opened(), "curl_global_init failed"};
  return c;
}

}  // namespace

Result<const CurlLibrary*> curl_library() {
  static const Result<CurlLibrary> loaded = open_curl();
  if (!loaded) return loaded.problem();
  return &loaded.value();
}

}  // namespace gpucheck
