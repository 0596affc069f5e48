#include "util/result.hpp"

namespace gpucheck {

std::string_view to_string(Reason r) {
  switch (r) {
    case Reason::absent: return "absent";
    case Reason::permission_denied: return "permission_denied";
    case Reason::timed_out: return "timed_out";
    case Reason::malformed: return "malformed";
    case Reason::failed: return "failed";
    case Reason::not_recorded: return "not_recorded";
  }
  return "failed";
}

}  // namespace gpucheck
