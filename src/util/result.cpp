#include "util/result.hpp"

#include "util/word_table.hpp"

namespace gpucheck {
namespace {

constexpr Word<Reason> kReasons[] = {
    {Reason::absent, "absent"},         {Reason::permission_denied, "permission_denied"},
    {Reason::timed_out, "timed_out"},   {Reason::malformed, "malformed"},
    {Reason::failed, "failed"},         {Reason::not_recorded, "not_recorded"},
    {Reason::skipped, "skipped"},
};

}  // namespace

std::string_view to_string(Reason r) { return name_of(kReasons, r); }
std::optional<Reason> reason_named(std::string_view name) { return value_named(kReasons, name); }
std::string reason_names() { return names_of(kReasons); }

}  // namespace gpucheck
