# The install as a user gets it, run by CTest (cmake/Install.cmake adds the
# tests). cmake -DSTEP=... -DBUILD_DIR=... -DWORK=... -P InstallCheck.cmake
#
#   STEP=install   cmake --install into WORK/staged, then move it to WORK/prefix:
#                  whatever still works there found its pieces by relative paths.
#   STEP=cli       from a folder of its own, with WARPVIZ_KIT unset:
#                  prefix/bin/warpviz-cli new k.cu, then run k.cu --json, checked;
#                  then the same with a copy whose kit is broken, which must fail
#                  (so the run above used the installed kit, not the build tree's).
#   STEP=package   builds examples/grading against prefix (find_package(warpviz))
#                  and runs its three tests there.
cmake_minimum_required(VERSION 3.25)

function(run_checked what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${what} failed (${status}):\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

set(prefix ${WORK}/prefix)
# A fresh program cache, and no kit named from outside: the binary must find its own.
set(clean_env ${CMAKE_COMMAND} -E env --unset=WARPVIZ_KIT WARPVIZ_CACHE_DIR=${WORK}/cache)

if(STEP STREQUAL "install")
  file(REMOVE_RECURSE ${WORK})
  run_checked("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK}/staged)
  file(RENAME ${WORK}/staged ${prefix})
  foreach(f bin/warpviz-cli include/warpviz/testing.h include/warpviz/record.cuh include/warpviz/user_file.h
            share/warpviz/kit/kit.json share/warpviz/kit/include/warpviz_user_prelude.h.gch
            share/warpviz/kit/shim/cuda_runtime.h lib/warpviz/libwarpviz_user_runtime.a lib/cmake/warpviz/warpvizConfig.cmake)
    if(NOT EXISTS ${prefix}/${f})
      message(FATAL_ERROR "the install has no ${f}")
    endif()
  endforeach()
  # Each kit (kit.json; kit_cuda.json in builds with CUDA) names only files of
  # the install, by paths relative to its folder.
  set(kit_dir ${prefix}/share/warpviz/kit)
  set(kits kit.json)
  if(EXISTS ${BUILD_DIR}/kit/kit_cuda.json)
    list(APPEND kits kit_cuda.json)
  endif()
  foreach(kit_name IN LISTS kits)
    if(NOT EXISTS ${kit_dir}/${kit_name})
      message(FATAL_ERROR "the install has no share/warpviz/kit/${kit_name} (the build tree's kit has one)")
    endif()
    file(READ ${kit_dir}/${kit_name} kit)
    string(FIND "${kit}" "${BUILD_DIR}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "the installed ${kit_name} names the build tree:\n${kit}")
    endif()
    string(JSON prelude GET "${kit}" prelude)
    set(named ${prelude})
    foreach(list_key include_dirs link_inputs rpath_dirs)
      string(JSON n LENGTH "${kit}" ${list_key})
      math(EXPR last "${n} - 1")
      foreach(i RANGE ${last})
        string(JSON item GET "${kit}" ${list_key} ${i})
        list(APPEND named ${item})
      endforeach()
    endforeach()
    foreach(item IN LISTS named)
      if(NOT EXISTS ${kit_dir}/${item})
        message(FATAL_ERROR "the installed ${kit_name} names ${item}, which the install does not hold")
      endif()
    endforeach()
  endforeach()

elseif(STEP STREQUAL "cli")
  file(REMOVE_RECURSE ${WORK}/cli ${WORK}/cache)
  file(MAKE_DIRECTORY ${WORK}/cli)
  execute_process(COMMAND ${clean_env} ${prefix}/bin/warpviz-cli new k.cu WORKING_DIRECTORY ${WORK}/cli
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0 OR NOT EXISTS ${WORK}/cli/k.cu)
    message(FATAL_ERROR "warpviz-cli new k.cu failed (${status}): ${out}${err}")
  endif()
  execute_process(COMMAND ${clean_env} ${prefix}/bin/warpviz-cli run k.cu --json WORKING_DIRECTORY ${WORK}/cli
                  RESULT_VARIABLE status OUTPUT_VARIABLE json ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "warpviz-cli run k.cu --json failed (${status}):\n${err}")
  endif()
  # The starter file: one ballot, five shfl.down rounds; over iota, lane 0's
  # sum is 496 (0x1f0) and the ballot of v > 0 is every lane but 0.
  string(JSON steps LENGTH "${json}" steps)
  string(JSON op0 GET "${json}" steps 0 op)
  string(JSON op5 GET "${json}" steps 5 op)
  string(JSON kernel GET "${json}" params kernel)
  string(JSON sum0 GET "${json}" outputs sum 0)
  string(JSON votes0 GET "${json}" outputs votes 0)
  if(NOT steps EQUAL 6 OR NOT op0 STREQUAL "vote.ballot" OR NOT op5 STREQUAL "shfl.down"
     OR NOT kernel STREQUAL "warp_sum_and_vote" OR NOT sum0 STREQUAL "0x000001f0" OR NOT votes0 STREQUAL "0xfffffffe")
    message(FATAL_ERROR "unexpected trace: ${steps} steps (${op0} ... ${op5}), kernel ${kernel}, "
                        "sum[0] ${sum0}, votes[0] ${votes0}")
  endif()
  # The negative control: a copy of the prefix whose kit library is garbage.
  file(REMOVE_RECURSE ${WORK}/broken ${WORK}/cache)
  file(COPY ${prefix}/ DESTINATION ${WORK}/broken)
  file(WRITE ${WORK}/broken/lib/warpviz/libwarpviz_user_runtime.a "not an archive\n")
  execute_process(COMMAND ${clean_env} ${WORK}/broken/bin/warpviz-cli run k.cu --json WORKING_DIRECTORY ${WORK}/cli
                  RESULT_VARIABLE status OUTPUT_QUIET ERROR_VARIABLE err)
  if(status EQUAL 0)
    message(FATAL_ERROR "a prefix with a broken kit still ran k.cu: the installed binary does not use its own kit")
  endif()
  file(REMOVE_RECURSE ${WORK}/broken)

elseif(STEP STREQUAL "package")
  file(REMOVE_RECURSE ${WORK}/grading)
  run_checked("configuring examples/grading against the install" ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/grading
              -B ${WORK}/grading -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=RelWithDebInfo)
  run_checked("building examples/grading" ${CMAKE_COMMAND} --build ${WORK}/grading -j2)
  run_checked("examples/grading's tests" ${clean_env} ${CMAKE_CTEST_COMMAND} --test-dir ${WORK}/grading --output-on-failure)
  message("${out}")
else()
  message(FATAL_ERROR "STEP must be install, cli or package")
endif()
