// A file compiled into the binary by cmake/embed_files.cmake.
#pragma once

namespace gpucheck::embedded {

struct File {
  const char* name;  // its path in the source tree, "matrix/gpus.json"; nullptr ends a list
  const char* text;
};

}  // namespace gpucheck::embedded
