// Reading the JSON a probe's isolated child wrote: a child that crashed
// half-way or a library that answered nonsense gives a missing or mistyped
// field, which reads as unknown (util/json_field.hpp), never as an
// exception.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "probe.hpp"
#include "util/json_field.hpp"
#include "util/json_text.hpp"

namespace gpucheck {

// Who answered, for the notes of an answer that did not come.
struct ChildCall {
  std::string subject, item;  // the note's: "cuda_driver_api", "CUDA driver"
  std::string key;            // the isolated call's: "cuda-driver-api"
  std::string library;        // what it was to load
  std::string hung;           // what a timeout means: "libcuda did not answer within 10000 ms (cuInit … hung)"
};

// The JSON object an isolated child printed; nullopt, with a note, for one
// that hung, crashed, printed nonsense or could not load its library.
inline std::optional<nlohmann::json> child_answer(ProbeContext& ctx, const ChildCall& c, const Result<std::string>& answer) {
  if (!answer) {
    auto p = answer.problem();
    if (p.reason == Reason::timed_out) p.detail = c.hung + "; the call was killed";
    ctx.note(c.subject, c.item, p);
    return std::nullopt;
  }
  auto parsed = parse_json(*answer);
  if (!parsed || !parsed->is_object()) {
    ctx.note(c.subject, c.item,
             Problem{Reason::malformed, c.key, parsed ? "the answer is not a JSON object" : "unreadable answer: " + parsed.problem().detail});
    return std::nullopt;
  }
  if (auto it = parsed->find("load_error"); it != parsed->end() && it->is_string()) {
    ctx.note(c.subject, c.item, Problem{Reason::failed, c.library, "dlopen failed: " + it->get<std::string>()});
    return std::nullopt;
  }
  return std::move(parsed).value();
}

}  // namespace gpucheck
