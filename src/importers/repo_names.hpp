// The Hugging Face repositories a paste names ("--model
// mistralai/Mistral-7B-v0.1", from_pretrained("meta-llama/Llama-2-7b-hf")):
// what model an out-of-memory error was about, which the rules look up in
// the matrix's models (`gpucheck fit`).
#pragma once

#include <string_view>
#include <vector>

namespace gpucheck {

// Each `owner/name` word of the line that is no path or URL: both parts of
// letters, digits, '.', '_' and '-', the name with a letter and a digit.
std::vector<std::string_view> repo_names(std::string_view line);

}  // namespace gpucheck
