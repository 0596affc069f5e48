#include "lock/fields.hpp"

#include <algorithm>
#include <array>

namespace gpucheck {

namespace {

// Defaults follow what breaks a job: the framework build and the libraries it
// loads must be the same; a driver may take patch releases within its branch
// (550.54 -> 550.90), and the CUDA a driver supports only has to be as new.
// Branch and descriptive fields default to ignore because another field
// already carries the same fact (one change, one finding).
constexpr std::array kFields{
    FieldSpec{"lock", "gpucheck", Policy::ignore, 0},
    FieldSpec{"lock", "matrix", Policy::ignore, 0},
    FieldSpec{"lock", "check", Policy::ignore, 0},
    FieldSpec{"gpu", "models", Policy::exact, 0},
    FieldSpec{"gpu", "count", Policy::exact, 0},
    FieldSpec{"gpu", "architectures", Policy::exact, 0},
    FieldSpec{"driver", "version", Policy::same_branch, 1},
    FieldSpec{"driver", "branch", Policy::ignore, 1},
    FieldSpec{"driver", "cuda", Policy::at_least, 2},
    FieldSpec{"cuda", "toolkit", Policy::exact, 2},
    FieldSpec{"libraries", "cudnn", Policy::exact, 2},
    FieldSpec{"libraries", "nccl", Policy::exact, 2},
    FieldSpec{"libraries", "cublas", Policy::exact, 2},
    FieldSpec{"libraries", "tensorrt", Policy::exact, 2},
    FieldSpec{"python", "version", Policy::same_branch, 2},
    FieldSpec{"frameworks", "*", Policy::exact, 2},
    FieldSpec{"wheels", "*", Policy::exact, 2},
    FieldSpec{"ngc", "framework", Policy::exact, 0},
    FieldSpec{"ngc", "release", Policy::exact, 0},
    FieldSpec{"network", "nccl_net_plugin", Policy::exact, 0},
    FieldSpec{"network", "ofed", Policy::exact, 0},
    FieldSpec{"network", "rdma_firmware", Policy::exact, 0},
    FieldSpec{"network", "rdma_rate", Policy::exact, 0},
    FieldSpec{"network", "gpudirect_rdma", Policy::exact, 0},
};

}  // namespace

const std::vector<std::string_view>& lock_sections() {
  static const std::vector<std::string_view> sections{"lock", "gpu", "driver", "cuda", "libraries",
                                                      "python", "frameworks", "wheels", "ngc", "network"};
  return sections;
}

const FieldSpec* find_field(std::string_view section, std::string_view key) {
  for (const auto& f : kFields) {
    if (f.section == section && (f.key == key || f.key == "*")) return &f;
  }
  return nullptr;
}

bool is_known_section(std::string_view section) { return section_rank(section) >= 0; }

int section_rank(std::string_view section) {
  const auto& s = lock_sections();
  auto it = std::find(s.begin(), s.end(), section);
  return it == s.end() ? -1 : static_cast<int>(it - s.begin());
}

bool is_valid_key(std::string_view key) {
  if (key.empty()) return false;
  return std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
           c == '-';
  });
}

std::string_view to_string(Policy p) {
  switch (p) {
    case Policy::exact: return "exact";
    case Policy::same_branch: return "same-branch";
    case Policy::at_least: return "at-least";
    case Policy::ignore: return "ignore";
  }
  return "exact";
}

std::optional<Policy> parse_policy(std::string_view s) {
  if (s == "exact") return Policy::exact;
  if (s == "same-branch") return Policy::same_branch;
  if (s == "at-least") return Policy::at_least;
  if (s == "ignore") return Policy::ignore;
  return std::nullopt;
}

const LockEntry* Lock::find(std::string_view section, std::string_view key) const {
  for (const auto& e : entries) {
    if (e.section == section && e.key == key) return &e;
  }
  return nullptr;
}

}  // namespace gpucheck
