# What `cmake --install` puts where, and the packages CPack builds from it:
# a .deb (cpack -G DEB) and the release tarball (target gpucheck_tarball:
# the binary, the one library Debian ships only shared, and the licences,
# for copying into a container).
include(GNUInstallDirs)

install(TARGETS gpucheck RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# Installed, the binary finds its libraries where the system keeps them:
# the RUNPATH the tarball needs (below) would be /usr/bin/lib here.
install(CODE "file(RPATH_REMOVE FILE \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/gpucheck\")")
# Programs as programs (0755): what slurm.conf, node-problem-detector and a
# job's command line name. Policy 9.1.1: /usr/libexec for programs that
# other programs run, /usr/bin for those people type.
install(PROGRAMS packaging/slurm/gpucheck-slurm packaging/kubernetes/node-problem-detector/gpucheck-npd
        DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/gpucheck)
install(PROGRAMS packaging/launchers/gpucheck-torchrun packaging/launchers/gpucheck-accelerate
        DESTINATION ${CMAKE_INSTALL_BINDIR})

set(GPUCHECK_CLI_DOCS ${CMAKE_BINARY_DIR}/cli-docs)
add_custom_command(OUTPUT ${GPUCHECK_CLI_DOCS}/gpucheck.1 ${GPUCHECK_CLI_DOCS}/gpucheck.bash
                          ${GPUCHECK_CLI_DOCS}/_gpucheck ${GPUCHECK_CLI_DOCS}/gpucheck.fish
  COMMAND ${CMAKE_COMMAND} -DGPUCHECK=$<TARGET_FILE:gpucheck> -DOUT=${GPUCHECK_CLI_DOCS} -P ${PROJECT_SOURCE_DIR}/cmake/cli_docs.cmake
  DEPENDS gpucheck ${PROJECT_SOURCE_DIR}/cmake/cli_docs.cmake
  COMMENT "Generating the man page and shell completions from the CLI"
  VERBATIM)
add_custom_target(gpucheck_cli_docs ALL DEPENDS ${GPUCHECK_CLI_DOCS}/gpucheck.1)
# Compressed as policy 12.1 asks (gzip -9n: no name or time in it, the same
# bytes each build).
add_custom_command(OUTPUT ${GPUCHECK_CLI_DOCS}/gpucheck.1.gz
  COMMAND gzip -9n -c ${GPUCHECK_CLI_DOCS}/gpucheck.1 > ${GPUCHECK_CLI_DOCS}/gpucheck.1.gz
  DEPENDS ${GPUCHECK_CLI_DOCS}/gpucheck.1
  VERBATIM)
add_custom_target(gpucheck_man_gz ALL DEPENDS ${GPUCHECK_CLI_DOCS}/gpucheck.1.gz)
install(FILES ${GPUCHECK_CLI_DOCS}/gpucheck.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${GPUCHECK_CLI_DOCS}/gpucheck.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME gpucheck)
install(FILES ${GPUCHECK_CLI_DOCS}/_gpucheck DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(FILES ${GPUCHECK_CLI_DOCS}/gpucheck.fish DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)

set(GPUCHECK_DOC_DIR ${CMAKE_INSTALL_DATADIR}/doc/gpucheck)
install(FILES README.md DESTINATION ${GPUCHECK_DOC_DIR})
# Debian's machine-readable copyright, and the changelog compressed as
# policy 12.7 asks (changelog.gz: gpucheck is its own upstream, a native package).
install(FILES packaging/debian/copyright DESTINATION ${GPUCHECK_DOC_DIR})
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/changelog.gz
  COMMAND gzip -9n -c ${PROJECT_SOURCE_DIR}/packaging/debian/changelog > ${CMAKE_BINARY_DIR}/changelog.gz
  DEPENDS ${PROJECT_SOURCE_DIR}/packaging/debian/changelog
  VERBATIM)
add_custom_target(gpucheck_changelog ALL DEPENDS ${CMAKE_BINARY_DIR}/changelog.gz)
install(FILES ${CMAKE_BINARY_DIR}/changelog.gz DESTINATION ${GPUCHECK_DOC_DIR})
install(DIRECTORY docs/ DESTINATION ${GPUCHECK_DOC_DIR}/docs FILES_MATCHING PATTERN "*.md")
# Configuration examples, for a node's operator to copy and adapt; the
# programs among them are installed above, not here.
foreach(dir systemd slurm kubernetes)
  install(DIRECTORY packaging/${dir} DESTINATION ${GPUCHECK_DOC_DIR}/examples
          PATTERN gpucheck-slurm EXCLUDE PATTERN gpucheck-npd EXCLUDE)
endforeach()

set(CPACK_PACKAGE_NAME gpucheck)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "pre-flight check of a GPU machine's driver, CUDA and framework stack")
set(CPACK_PACKAGE_DESCRIPTION "gpucheck reads the GPUs, the NVIDIA driver, the CUDA driver API, the
CUDA toolkits and libraries and the Python frameworks of a machine, judges
them against a compatibility matrix of known-bad combinations, proves each
precision with short kernel checks, and pins a team's stack in a lockfile.
Exit codes and JSON for job launchers.")
# Debugging symbols do not ship in the package (policy 10.1).
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_CONTACT "gpucheck developers <gpucheck@users.noreply.github.com>")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/gpucheck/gpucheck")
# The libraries it links (libsimdjson, libstdc++), as dpkg-shlibdeps reads
# them from the binary. The GPU libraries, libcurl and libcrypto are
# dlopen()ed: only `matrix update` and signature checks need the last two,
# and say so when they are missing, so they are recommended, not required
# (Ubuntu 22.04's libcurl is older than the 7.85 that matrix updates need
# to restrict curl's protocols, download.cpp; everything else runs there).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libcurl4 (>= 7.85.0), libssl3")
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
