# Writes the man page and the shell completions by running the built
# gpucheck (`gpucheck manpage`, `gpucheck completion SHELL`), so they come
# from the same CLI definitions as --help. Run by the gpucheck_cli_docs
# target: cmake -DGPUCHECK=<binary> -DOUT=<dir> -P cli_docs.cmake
file(MAKE_DIRECTORY ${OUT})
foreach(pair "manpage;gpucheck.1" "completion;bash;gpucheck.bash" "completion;zsh;_gpucheck" "completion;fish;gpucheck.fish")
  list(POP_BACK pair file)
  execute_process(COMMAND ${GPUCHECK} ${pair} OUTPUT_FILE ${OUT}/${file} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gpucheck ${pair} failed (${rc})")
  endif()
endforeach()
