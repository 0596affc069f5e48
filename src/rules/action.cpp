#include "rules/action.hpp"

#include "util/word_table.hpp"

namespace gpucheck {

namespace {

constexpr Word<Action> kActions[] = {{Action::none, "none"},
                                     {Action::fix_software, "fix-software"},
                                     {Action::reload_driver, "reload-driver"},
                                     {Action::reset_gpu, "reset-gpu"},
                                     {Action::reboot, "reboot"},
                                     {Action::service, "service"}};

constexpr Word<Action> kMeanings[] = {
    {Action::none, "nothing to do on the node: information, or a requirement this node does not meet (run the job elsewhere)"},
    {Action::fix_software, "fix the software in place: install, upgrade, pin or configure a library, framework, container or environment variable"},
    {Action::reload_driver, "reinstall, upgrade or reload the NVIDIA driver: its kernel modules, its userspace libraries, the fabric manager"},
    {Action::reset_gpu, "reset the GPU (nvidia-smi -r) with the node drained, then check again"},
    {Action::reboot, "reboot the node"},
    {Action::service, "drain the node for hardware service: cooling, power, a PCIe slot or the GPU itself"},
};

}  // namespace

std::string_view to_string(Action a) { return name_of(kActions, a); }
std::optional<Action> action_named(std::string_view name) { return value_named(kActions, name); }
std::string action_names() { return names_of(kActions); }
std::string_view describe(Action a) { return name_of(kMeanings, a); }

const std::vector<Action>& all_actions() {
  static const std::vector<Action> all = [] {
    std::vector<Action> out;
    for (const auto& w : kActions) out.push_back(w.value);
    return out;
  }();
  return all;
}

}  // namespace gpucheck
