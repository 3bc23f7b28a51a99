# cmake --install build --prefix P: everything warpviz installs, in one place.
#
#   P/bin/warpviz-cli, P/bin/warpviz (the app, when built)
#   P/include/warpviz/          the recording layer, the core, the runner, testing.h
#   P/lib/warpviz/              the libraries: the kit's (user runtime, core,
#                               boost_context) and the testing API's
#   P/lib/cmake/warpviz/        find_package(warpviz): the target warpviz::testing
#   P/share/warpviz/kit/        kit.json (paths relative to itself), the
#                               precompiled prelude, the CUDA header shims
#   P/share/warpviz/shaders, assets   the app's
#
# The runner looks for <exe_dir>/../share/warpviz/kit/kit.json first, so an
# installed warpviz-cli compiles users' files against its own kit, wherever P
# is moved to. The layout is fixed (not GNUInstallDirs) so that kit.json and the
# package config can name each piece relative to their own folder.

set(warpviz_kit_dest share/warpviz/kit)
set(warpviz_lib_dest lib/warpviz)

install(TARGETS warpviz-cli RUNTIME DESTINATION bin)
if(TARGET warpviz)
  install(TARGETS warpviz RUNTIME DESTINATION bin)
  # The app still reads these from the source tree (WARPVIZ_SHADER_DIR,
  # WARPVIZ_ASSET_DIR); installed beside the kit for when it looks here.
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/shaders DESTINATION share/warpviz)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets DESTINATION share/warpviz)
endif()

list(TRANSFORM WARPVIZ_CUDA_INCLUDE_DIRS APPEND /warpviz OUTPUT_VARIABLE warpviz_cuda_header_dirs)
install(DIRECTORY
          ${PROJECT_SOURCE_DIR}/core/include/warpviz
          ${warpviz_cuda_header_dirs}
          ${PROJECT_SOURCE_DIR}/runner/include/warpviz
        DESTINATION include)

# --- the kit ----------------------------------------------------------------
# What a user's .cu file is compiled and linked against (user_programs/CMakeLists.txt
# builds it into ${WARPVIZ_KIT_DIR} with absolute paths). Boost.Context goes in
# as its static archive where there is one, so a user's program needs nothing
# from the build machine's library folders.
find_library(WARPVIZ_BOOST_CONTEXT_ARCHIVE NAMES libboost_context.a)
if(WARPVIZ_BOOST_CONTEXT_ARCHIVE)
  set(warpviz_boost_context ${WARPVIZ_BOOST_CONTEXT_ARCHIVE})
else()
  set(warpviz_boost_context $<TARGET_FILE:Boost::context>)
endif()
install(TARGETS warpviz_user_runtime warpviz_user_common warpviz_emulator warpviz_core ARCHIVE DESTINATION ${warpviz_lib_dest})
install(FILES ${warpviz_boost_context} DESTINATION ${warpviz_lib_dest})
install(FILES ${WARPVIZ_KIT_DIR}/include/warpviz_user_prelude.h ${WARPVIZ_KIT_DIR}/include/warpviz_user_prelude.h.gch
        DESTINATION ${warpviz_kit_dest}/include)
# The CUDA headers a user's program includes, as the kit's shim/.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/cuda_cpu/headers/ DESTINATION ${warpviz_kit_dest}/shim)

# kit.json with paths relative to the kit folder (the runner resolves them
# there); the same flags as the build tree's, which the .gch was made with.
get_directory_property(WARPVIZ_USER_CXX_FLAGS DIRECTORY ${PROJECT_SOURCE_DIR}/user_programs DEFINITION WARPVIZ_USER_CXX_FLAGS)
# The device-semantics plugin goes beside the kit's libraries; the runner
# resolves -fplugin= against the kit folder, as it does the kit's paths.
set(warpviz_device_plugin ${WARPVIZ_DEVICE_SEMANTICS_PLUGIN})
if(warpviz_device_plugin)
  install(FILES ${warpviz_device_plugin} DESTINATION ${warpviz_kit_dest}/lib)
  list(TRANSFORM WARPVIZ_USER_CXX_FLAGS REPLACE "^-fplugin=.*$"
       "-fplugin=lib/warpviz_device_semantics.so")
endif()
set(warpviz_kit_flags ${WARPVIZ_USER_CXX_FLAGS} -fdiagnostics-color=never -fmax-errors=20)
string(REPLACE ";" "\", \"" warpviz_kit_flags_json "${warpviz_kit_flags}")
# A sanitized build's objects need the sanitizer runtime at link time too.
set(warpviz_kit_link_flags -no-pie -pthread -fuse-ld=gold)
if(WARPVIZ_SANITIZE)
  list(APPEND warpviz_kit_link_flags ${WARPVIZ_SANITIZE_FLAGS})
endif()
string(REPLACE ";" "\", \"" warpviz_kit_link_flags_json "${warpviz_kit_link_flags}")
set(warpviz_kit_lib ../../../${warpviz_lib_dest})
file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/install-kit/kit.json CONTENT "{
  \"compiler\": \"${CMAKE_CXX_COMPILER}\",
  \"compile_flags\": [\"${warpviz_kit_flags_json}\"],
  \"include_dirs\": [\"shim\", \"../../../include\"],
  \"prelude\": \"include/warpviz_user_prelude.h\",
  \"link_inputs\": [\"${warpviz_kit_lib}/$<TARGET_FILE_NAME:warpviz_user_runtime>\", \"${warpviz_kit_lib}/$<TARGET_FILE_NAME:warpviz_user_common>\", \"${warpviz_kit_lib}/$<TARGET_FILE_NAME:warpviz_emulator>\", \"${warpviz_kit_lib}/$<TARGET_FILE_NAME:warpviz_core>\", \"${warpviz_kit_lib}/$<PATH:GET_FILENAME,${warpviz_boost_context}>\"],
  \"link_flags\": [\"${warpviz_kit_link_flags_json}\"],
  \"rpath_args\": [\"-Wl,-rpath,{}\"],
  \"rpath_dirs\": [\"${warpviz_kit_lib}\"],
  \"unit_suffix\": \".cpp\",
  \"host_rewrite\": true
}
")
install(FILES ${PROJECT_BINARY_DIR}/install-kit/kit.json DESTINATION ${warpviz_kit_dest})

# The GPU's kit, in builds with CUDA (as user_programs/CMakeLists.txt's, but with the
# installed headers): without it an installed warpviz-cli ran users' files on
# the emulator only. nvcc takes a library by a plain .a or .so name only, so a
# shared Boost.Context gets a copy named libboost_context.so; the program then
# loads the versioned file installed above by its soname, through the rpath.
if(WARPVIZ_HAVE_CUDA)
  get_directory_property(WARPVIZ_USER_CUDA_FLAGS DIRECTORY ${PROJECT_SOURCE_DIR}/user_programs DEFINITION WARPVIZ_USER_CUDA_FLAGS)
  string(REPLACE ";" "\", \"" warpviz_kit_cuda_flags_json "${WARPVIZ_USER_CUDA_FLAGS}")
  if(WARPVIZ_BOOST_CONTEXT_ARCHIVE)
    set(warpviz_cuda_boost_context ${warpviz_kit_lib}/$<PATH:GET_FILENAME,${warpviz_boost_context}>)
  else()
    install(FILES ${warpviz_boost_context} DESTINATION ${warpviz_lib_dest} RENAME libboost_context.so)
    set(warpviz_cuda_boost_context ${warpviz_kit_lib}/libboost_context.so)
  endif()
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/gpu_recorder/headers/ DESTINATION ${warpviz_kit_dest}/shim_cuda)
  file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/install-kit/kit_cuda.json CONTENT "{
  \"compiler\": \"${CMAKE_CUDA_COMPILER}\",
  \"compile_flags\": [\"${warpviz_kit_cuda_flags_json}\"],
  \"include_dirs\": [\"shim_cuda\", \"../../../include\"],
  \"prelude\": \"../../../include/warpviz/user_prelude_cuda.cuh\",
  \"link_inputs\": [\"${warpviz_kit_lib}/$<TARGET_FILE_NAME:warpviz_user_common>\", \"${warpviz_kit_lib}/$<TARGET_FILE_NAME:warpviz_emulator>\", \"${warpviz_kit_lib}/$<TARGET_FILE_NAME:warpviz_core>\", \"${warpviz_cuda_boost_context}\"],
  \"link_flags\": [\"-arch=native\"],
  \"rpath_args\": [\"-Xlinker\", \"-rpath,{}\"],
  \"rpath_dirs\": [\"${warpviz_kit_lib}\"],
  \"unit_suffix\": \".cu\",
  \"user_include_flag\": \"-I\",
  \"host_rewrite\": false
}
")
  install(FILES ${PROJECT_BINARY_DIR}/install-kit/kit_cuda.json DESTINATION ${warpviz_kit_dest})
endif()

# --- the testing API ----------------------------------------------------------
# find_package(warpviz) in a course's CMake project (examples/grading builds
# that way against an install) gives warpviz::testing.
if(TARGET warpviz_testing)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/testing/include/warpviz DESTINATION include)
  set(warpviz_testing_libs warpviz_testing warpviz_runner warpviz_kernels_cpu)
  if(TARGET warpviz_kernels_cuda)
    list(APPEND warpviz_testing_libs warpviz_kernels_cuda)
  endif()
  install(TARGETS ${warpviz_testing_libs} ARCHIVE DESTINATION ${warpviz_lib_dest})
  # The installed libraries of a sanitized build link only with its runtime.
  set(WARPVIZ_INSTALLED_LINK_OPTIONS "")
  if(WARPVIZ_SANITIZE)
    set(WARPVIZ_INSTALLED_LINK_OPTIONS "${WARPVIZ_SANITIZE_FLAGS}")
  endif()
  set(WARPVIZ_BOOST_CONTEXT_FILE_NAME "$<PATH:GET_FILENAME,${warpviz_boost_context}>")
  configure_file(${PROJECT_SOURCE_DIR}/cmake/warpvizConfig.cmake.in ${PROJECT_BINARY_DIR}/install-kit/warpvizConfig.cmake.in @ONLY)
  file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/install-kit/warpvizConfig.cmake
       INPUT ${PROJECT_BINARY_DIR}/install-kit/warpvizConfig.cmake.in)
  include(CMakePackageConfigHelpers)
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/install-kit/warpvizConfigVersion.cmake
                                   COMPATIBILITY SameMinorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/install-kit/warpvizConfig.cmake
                ${PROJECT_BINARY_DIR}/install-kit/warpvizConfigVersion.cmake
          DESTINATION lib/cmake/warpviz)
endif()

# --- the install, tested --------------------------------------------------------
if(BUILD_TESTING)
  set(warpviz_install_check ${CMAKE_COMMAND} -DBUILD_DIR=${PROJECT_BINARY_DIR} -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
      -DWORK=${PROJECT_BINARY_DIR}/install-check)
  set(warpviz_install_script -P ${PROJECT_SOURCE_DIR}/cmake/InstallCheck.cmake)
  add_test(NAME install.prefix COMMAND ${warpviz_install_check} -DSTEP=install ${warpviz_install_script})
  add_test(NAME install.cli_run COMMAND ${warpviz_install_check} -DSTEP=cli ${warpviz_install_script})
  add_test(NAME install.package COMMAND ${warpviz_install_check} -DSTEP=package ${warpviz_install_script})
  set_tests_properties(install.prefix PROPERTIES FIXTURES_SETUP warpviz_install)
  set_tests_properties(install.cli_run install.package PROPERTIES FIXTURES_REQUIRED warpviz_install RESOURCE_LOCK warpviz_install_check)
  set_tests_properties(install.prefix install.cli_run install.package PROPERTIES LABELS install TIMEOUT 600)
endif()
