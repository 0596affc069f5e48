// The layout of the generated embedded_matrix_data.cpp (cmake/embed_matrix.cmake).
#pragma once

namespace gpucheck::embedded {

struct MatrixFile {
  const char* name;  // "matrix/gpus.json"; nullptr ends the list
  const char* text;
};

// Ends with {nullptr, nullptr}, so an empty matrix/ still yields a valid array.
extern const MatrixFile kMatrixFiles[];

}  // namespace gpucheck::embedded
