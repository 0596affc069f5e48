# What `cmake --install` puts where, and the packages CPack builds from it:
# a .deb (cpack -G DEB) and the release tarball (target gpucheck_tarball:
# the binary, the one library Debian ships only shared, and the licences,
# for copying into a container).
include(GNUInstallDirs)

install(TARGETS gpucheck RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

set(GPUCHECK_CLI_DOCS ${CMAKE_BINARY_DIR}/cli-docs)
add_custom_command(OUTPUT ${GPUCHECK_CLI_DOCS}/gpucheck.1 ${GPUCHECK_CLI_DOCS}/gpucheck.bash
                          ${GPUCHECK_CLI_DOCS}/_gpucheck ${GPUCHECK_CLI_DOCS}/gpucheck.fish
  COMMAND ${CMAKE_COMMAND} -DGPUCHECK=$<TARGET_FILE:gpucheck> -DOUT=${GPUCHECK_CLI_DOCS} -P ${PROJECT_SOURCE_DIR}/cmake/cli_docs.cmake
  DEPENDS gpucheck ${PROJECT_SOURCE_DIR}/cmake/cli_docs.cmake
  COMMENT "Generating the man page and shell completions from the CLI"
  VERBATIM)
add_custom_target(gpucheck_cli_docs ALL DEPENDS ${GPUCHECK_CLI_DOCS}/gpucheck.1)
install(FILES ${GPUCHECK_CLI_DOCS}/gpucheck.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${GPUCHECK_CLI_DOCS}/gpucheck.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME gpucheck)
install(FILES ${GPUCHECK_CLI_DOCS}/_gpucheck DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(FILES ${GPUCHECK_CLI_DOCS}/gpucheck.fish DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)

set(GPUCHECK_DOC_DIR ${CMAKE_INSTALL_DATADIR}/doc/gpucheck)
install(FILES README.md DESTINATION ${GPUCHECK_DOC_DIR})
install(FILES LICENSE DESTINATION ${GPUCHECK_DOC_DIR} RENAME copyright)
install(DIRECTORY docs/ DESTINATION ${GPUCHECK_DOC_DIR}/docs FILES_MATCHING PATTERN "*.md")
# Launcher integrations, as examples: a node's operator copies and adapts them.
foreach(dir systemd slurm kubernetes launchers)
  if(IS_DIRECTORY ${PROJECT_SOURCE_DIR}/packaging/${dir})
    install(DIRECTORY packaging/${dir} DESTINATION ${GPUCHECK_DOC_DIR}/examples)
  endif()
endforeach()

set(CPACK_PACKAGE_NAME gpucheck)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "pre-flight check of a GPU machine's driver, CUDA and framework stack")
set(CPACK_PACKAGE_DESCRIPTION "gpucheck reads the GPUs, the NVIDIA driver, the CUDA driver API, the CUDA toolkits and
libraries and the Python frameworks of a machine, judges them against a compatibility
matrix of known-bad combinations, proves each precision with short kernel checks, and
pins a team's stack in a lockfile. Exit codes and JSON for job launchers.")
set(CPACK_PACKAGE_CONTACT "gpucheck developers <gpucheck@users.noreply.github.com>")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/gpucheck/gpucheck")
# The libraries it links (libsimdjson, libstdc++), as dpkg-shlibdeps reads
# them from the binary; the GPU libraries, libcurl and libcrypto are
# dlopen()ed, so shlibdeps cannot see the last two: named here. Matrix
# updates restrict curl's protocols, which needs 7.85 (download.cpp).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libcurl4 (>= 7.85.0), libssl3")
set(CPACK_GENERATOR DEB)
set(CPACK_OUTPUT_FILE_PREFIX ${CMAKE_BINARY_DIR}/packages)
include(CPack)

# The tarball is for images that are not Debian 12 (NGC containers are
# Ubuntu): Debian ships simdjson (`gpucheck fleet`) as a shared library
# only, so its library and licence travel in lib/, found through the
# binary's RUNPATH, $ORIGIN/lib (in the .deb, /usr/bin/lib, which does not
# exist). Set as the install RPATH used at build time too: a build RPATH
# is padded by CMake with an empty element, which glibc reads as the
# current directory.
set_target_properties(gpucheck PROPERTIES INSTALL_RPATH "$ORIGIN/lib" BUILD_WITH_INSTALL_RPATH ON)
string(TOLOWER ${CMAKE_SYSTEM_PROCESSOR} GPUCHECK_ARCH)
set(GPUCHECK_TARBALL ${CMAKE_BINARY_DIR}/packages/gpucheck-${PROJECT_VERSION}-linux-${GPUCHECK_ARCH}.tar.gz)
set(GPUCHECK_TARBALL_DIR tarball/gpucheck-${PROJECT_VERSION})
get_target_property(GPUCHECK_SIMDJSON_SONAME simdjson::simdjson IMPORTED_SONAME_RELWITHDEBINFO)
add_custom_command(OUTPUT ${GPUCHECK_TARBALL}
  COMMAND ${CMAKE_COMMAND} -E rm -rf tarball
  COMMAND ${CMAKE_COMMAND} -E make_directory ${GPUCHECK_TARBALL_DIR}/lib ${CMAKE_BINARY_DIR}/packages
  COMMAND ${CMAKE_COMMAND} -E copy $<TARGET_FILE:gpucheck> ${PROJECT_SOURCE_DIR}/LICENSE ${GPUCHECK_TARBALL_DIR}/
  COMMAND ${CMAKE_COMMAND} -E copy $<TARGET_FILE:simdjson::simdjson> ${GPUCHECK_TARBALL_DIR}/lib/${GPUCHECK_SIMDJSON_SONAME}
  COMMAND ${CMAKE_COMMAND} -E copy /usr/share/doc/libsimdjson-dev/copyright ${GPUCHECK_TARBALL_DIR}/lib/LICENSE.simdjson
  COMMAND ${CMAKE_COMMAND} -E chdir tarball ${CMAKE_COMMAND} -E tar czf ${GPUCHECK_TARBALL} gpucheck-${PROJECT_VERSION}
  DEPENDS gpucheck ${PROJECT_SOURCE_DIR}/LICENSE
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}
  COMMENT "Release tarball: the binary, its simdjson and the licences"
  VERBATIM)
add_custom_target(gpucheck_tarball DEPENDS ${GPUCHECK_TARBALL})
