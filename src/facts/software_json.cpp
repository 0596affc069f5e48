// JSON of the software stack: toolkits, libraries, Python environments, ROCm, containers.
#include <utility>

#include "facts/json_util.hpp"

namespace gpucheck {

J to_json(const SoftwareFacts& s) {
  J toolkits = J::array();
  for (auto& t : s.toolkits)
    toolkits.push_back({{"root", t.root}, {"kind", t.kind}, {"version", opt(t.version)},
                        {"version_source", opt(t.version_source)}, {"nvcc", opt(t.nvcc)},
                        {"active", t.active}, {"active_because", t.active_because}});
  J libs = J::array();
  for (auto& l : s.libraries)
    libs.push_back({{"name", l.name}, {"version", opt(l.version)}, {"version_source", opt(l.version_source)},
                    {"library", opt(l.library)}, {"found_in", l.found_in}});
  J python = J::array();
  for (auto& e : s.python) python.push_back(to_json(e));
  return J{{"cuda_toolkits", std::move(toolkits)},
           {"libraries", std::move(libs)},
           {"python", std::move(python)},
           {"rocm", to_json(s.rocm)},
           {"gpu_env", s.gpu_env},
           {"container_toolkit",
            {{"injected", s.container_toolkit_injected}, {"evidence", s.container_toolkit_evidence}}},
           {"cuda_compat", opt(s.cuda_compat)}, {"cuda_compat_entry", opt(s.cuda_compat_entry)}};
}

}  // namespace gpucheck
