// The precision names, in one table: the matrix's (an architecture's
// "precisions", a GPU's "tflops"), --require's, and the kernel checks' (which
// check each FP8 and FP6 encoding apart; the matrix names the family once,
// since both encodings run on the same units).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpucheck {

// The kernel checks' names, in the order they run and are reported:
// "fp64", "fp32", "tf32", "fp16", "bf16", "int8", "fp8_e4m3", "fp8_e5m2",
// "fp6_e3m2", "fp6_e2m3", "fp4".
const std::vector<std::string>& checked_precisions();

// The matrix's names, each once, in the same order: "fp64" … "fp8", "fp6",
// "fp4", then "int4", which no kernel checks.
const std::vector<std::string>& matrix_precisions();

// The matrix's names of the precisions some kernel checks, in that order:
// what `check --require` takes ("fp64" … "bf16", "int8", "fp8", "fp6", "fp4").
const std::vector<std::string>& requirable_precisions();

// The matrix's name of a kernel check's precision ("fp8_e4m3" -> "fp8");
// nullopt for a name the table lacks.
std::optional<std::string> matrix_precision_of(std::string_view checked);

}  // namespace gpucheck
