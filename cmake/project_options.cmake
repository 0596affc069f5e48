# Warnings and sanitizers as interface targets: every gpucheck target links
# gpucheck_options (warnings and sanitizers); nothing is set globally. The
# test doubles of the driver link gpucheck_warnings alone: like the driver
# they stand in for, they are loaded uninstrumented, into a sanitized test
# binary or into the release binary alike.
add_library(gpucheck_warnings INTERFACE)
target_compile_options(gpucheck_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                                   -Wno-sign-conversion)
if(GPUCHECK_WERROR)
  target_compile_options(gpucheck_warnings INTERFACE -Werror)
endif()
add_library(gpucheck_options INTERFACE)
target_link_libraries(gpucheck_options INTERFACE gpucheck_warnings)
if(GPUCHECK_SANITIZE AND GPUCHECK_TSAN)
  message(FATAL_ERROR "GPUCHECK_SANITIZE (ASan/UBSan) and GPUCHECK_TSAN cannot be combined: build them apart")
endif()
if(GPUCHECK_TSAN)
  # The probes run in parallel and `verify --fleet` reads reports on a pool.
  target_compile_options(gpucheck_options INTERFACE -fsanitize=thread -fno-omit-frame-pointer)
  target_link_options(gpucheck_options INTERFACE -fsanitize=thread)
endif()
if(GPUCHECK_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "GPUCHECK_FUZZ needs clang (libFuzzer): use the fuzz preset")
  endif()
  # Coverage for libFuzzer in every library; the fuzz binary adds its main.
  target_compile_options(gpucheck_options INTERFACE -fsanitize=fuzzer-no-link)
  set(GPUCHECK_SANITIZE ON)
endif()
if(GPUCHECK_SANITIZE)
  target_compile_options(gpucheck_options INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer
                                                    -fno-sanitize-recover=undefined)
  # GCC 12 under -fsanitize reports uninitialised members inside libstdc++'s
  # <regex> and <functional> that are not (seen in std::regex's executor).
  # The optimised -Werror build (CI's release) still checks our own code.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(gpucheck_options INTERFACE -Wno-maybe-uninitialized)
  endif()
  target_link_options(gpucheck_options INTERFACE -fsanitize=address,undefined)
endif()

# ccache, where installed: a rebuild after a branch switch or a CI run on the
# same machine then costs what changed. (Precompiled headers were measured and
# left out: with -O2 -g the time goes to code generation, not parsing; a test
# file compiled in 13.0 s with one, 12.7 s without.)
find_program(GPUCHECK_CCACHE ccache)
if(GPUCHECK_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_CXX_COMPILER_LAUNCHER ${GPUCHECK_CCACHE})
  set(CMAKE_C_COMPILER_LAUNCHER ${GPUCHECK_CCACHE})
endif()

