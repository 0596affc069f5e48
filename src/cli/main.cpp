// gpucheck's entry point; everything else is in the libraries.
#include "cli/run_app.hpp"

int main(int argc, char** argv) { return gpucheck::run_app(argc, argv); }
