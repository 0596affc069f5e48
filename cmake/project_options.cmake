# Warnings and sanitizers as interface targets: every gpucheck target links
# gpucheck_options; nothing is set globally.
add_library(gpucheck_options INTERFACE)
target_compile_options(gpucheck_options INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                                  -Wno-sign-conversion)
if(GPUCHECK_WERROR)
  target_compile_options(gpucheck_options INTERFACE -Werror)
endif()
if(GPUCHECK_SANITIZE)
  target_compile_options(gpucheck_options INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer
                                                    -fno-sanitize-recover=undefined)
  target_link_options(gpucheck_options INTERFACE -fsanitize=address,undefined)
endif()
