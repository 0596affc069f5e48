// What an operator or a scheduler should do about a finding: a fixed
// vocabulary, ordered from nothing to the most drastic, each rule naming one
// (docs/rules.md). A verdict's action is the most drastic of its failing
// findings', so a launcher can route a failed node without reading prose:
// a software fault is fixed in place, a GPU reset or a reboot can be
// automated, hardware service needs a person.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpucheck {

enum class Action {
  none,           // nothing to do on the node: informational, or a requirement it does not meet (run the job elsewhere)
  fix_software,   // install, upgrade, pin or configure software or the environment
  reload_driver,  // reinstall, upgrade or reload the NVIDIA driver (its modules, userspace, fabric manager)
  reset_gpu,      // reset the GPU (nvidia-smi -r) with the node drained
  reboot,         // reboot the node
  service,        // drain the node for hardware service
};

std::string_view to_string(Action a);  // "none", "fix-software", "reload-driver", "reset-gpu", "reboot", "service"
std::optional<Action> action_named(std::string_view name);
std::string action_names();            // for an error that says what was expected
std::string_view describe(Action a);   // what it means, for the docs and --help
const std::vector<Action>& all_actions();

}  // namespace gpucheck
