// libcurl's entry points, opened when `matrix update` first needs them
// instead of linked: libcurl brings 33 libraries whose loading cost every
// run of gpucheck about 4 ms of CPU (a prolog's fifth), and only the one
// download uses them. curl/curl.h still gives the types, so each pointer
// has the exact signature of the function it names.
#pragma once

#include <curl/curl.h>

#include "util/result.hpp"

namespace gpucheck {

struct CurlLibrary {
  decltype(&curl_global_init) global_init;
  decltype(&curl_easy_init) easy_init;
  decltype(&curl_easy_setopt) easy_setopt;
  decltype(&curl_easy_perform) easy_perform;
  decltype(&curl_easy_getinfo) easy_getinfo;
  decltype(&curl_easy_strerror) easy_strerror;
  decltype(&curl_easy_cleanup) easy_cleanup;
  decltype(&curl_slist_append) slist_append;
  decltype(&curl_slist_free_all) slist_free_all;
  decltype(&curl_version) version;
};

// Opened (and curl_global_init run) once per process and kept; the Problem
// names the library and the package that has it.
Result<const CurlLibrary*> curl_library();

}  // namespace gpucheck
