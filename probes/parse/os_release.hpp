// /etc/os-release (systemd's os-release(5)): KEY=value, values optionally quoted.
#pragma once
#include <string_view>
#include "facts/facts.hpp"
namespace gpucheck {
OsRelease parse_os_release(std::string_view text);
}
