# A binary carries no path of the build tree: a copied or installed warpviz-cli
# must not reach back into a build folder (whoever owns that path later could
# hand it a kit). Debug info names the build folder as the compile directory,
# so the whole file is searched for the kit's folder, and the loaded data
# (.rodata, .data) for any path of the build tree.
# AddressSanitizer names each instrumented source file in its globals'
# descriptors (for its reports), so a sanitized build passes -DSANITIZED=ON and
# a generated source's own name is not counted: it is never opened.
#   cmake -DBINARY=... -DBUILD_DIR=... [-DOBJCOPY=...] [-DSANITIZED=ON] -P check_no_build_path.cmake
string(REPLACE "." "\\." build_regex "${BUILD_DIR}")
string(REPLACE "+" "\\+" build_regex "${build_regex}")
file(STRINGS "${BINARY}" kit_hits REGEX "${build_regex}/kit")
if(kit_hits)
  list(GET kit_hits 0 first)
  message(FATAL_ERROR "${BINARY} names the build tree's kit: ${first}")
endif()
if(OBJCOPY)
  get_filename_component(name "${BINARY}" NAME)
  set(data "${CMAKE_CURRENT_BINARY_DIR}/${name}.loaded-data")
  execute_process(COMMAND "${OBJCOPY}" -O binary --only-section=.rodata --only-section=.data "${BINARY}" "${data}"
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${OBJCOPY} could not read ${BINARY}")
  endif()
  file(STRINGS "${data}" hits REGEX "${build_regex}")
  file(REMOVE "${data}")
  if(SANITIZED)
    list(FILTER hits EXCLUDE REGEX "^${build_regex}/[^ ]*\\.(c|cc|cpp)$")
  endif()
  if(hits)
    list(GET hits 0 first)
    message(FATAL_ERROR "${BINARY} holds a path of the build tree in its data: ${first}")
  endif()
endif()
message(STATUS "${BINARY}: no path of ${BUILD_DIR}")
