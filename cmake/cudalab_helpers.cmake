# Helpers so that a test executable or a whole lab is a few lines, not a copied file.
include(GoogleTest OPTIONAL)

# cudalab_add_gtest(<target> [PURE_CPU] SOURCES ... LABELS ... [LINK ...] [ENVIRONMENT ...])
# One GoogleTest executable; every test case becomes a CTest test carrying LABELS.
# A case that calls GTEST_SKIP() is reported by CTest as skipped, never as passed.
# PURE_CPU: the test needs no CUDA (the access model); it links GTest's main instead of the
# GPU fixtures, so it builds and runs without the CUDA instrumentation library.
function(cudalab_add_gtest target)
  cmake_parse_arguments(arg "PURE_CPU" "" "SOURCES;LABELS;LINK;ENVIRONMENT" ${ARGN})
  if(NOT CUDALAB_BUILD_TESTS)
    return()
  endif()
  add_executable(${target} ${arg_SOURCES})
  if(arg_PURE_CPU)
    set(support GTest::gtest_main)
  else()
    set(support cudalab::test_support)
  endif()
  target_link_libraries(${target} PRIVATE cudalab::options ${support} GTest::gtest ${arg_LINK})
  set(props SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]")
  if(arg_ENVIRONMENT)
    list(APPEND props ENVIRONMENT "${arg_ENVIRONMENT}")
  endif()
  gtest_discover_tests(${target} DISCOVERY_TIMEOUT 60 PROPERTIES ${props})
  # gtest_discover_tests flattens a list in PROPERTIES (LABELS "cpu;model" kept only "cpu"), so
  # the labels are set by a script that CTest runs after the discovered-tests script.
  set(labels_file ${CMAKE_CURRENT_BINARY_DIR}/${target}_labels.cmake)
  file(WRITE ${labels_file} "if(${target}_TESTS)\n  set_tests_properties(\${${target}_TESTS} "
                            "PROPERTIES LABELS \"${arg_LABELS}\")\nendif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${labels_file})
endfunction()

# cudalab_add_lab(<NN-name> SOURCES ... [LINK ...] [CPU_TESTS ...] [GPU_TESTS ...]
#                 [EXERCISE exercise.cu SOLUTION solution.cu CHECK_TEST tests/check_test.cu])
# Builds the lab's library (its lab.cu must define cudalab::labs::make_lab_NN_name()),
# registers it with the tool, and adds its CPU and GPU test executables with labels
# cpu|gpu and labNN. With an exercise, the lab is built twice: cudalab_labNN from the
# learner's exercise.cu (what the tool runs) and cudalab_labNN_solution from the reference
# solution; CHECK_TEST is compiled against both, with CUDALAB_EXPECT_CHECK_PASS 0 and 1,
# so the tests prove that the checker fails the untouched exercise and passes the solution.
function(cudalab_add_lab lab_dir)
  cmake_parse_arguments(arg "" "EXERCISE;SOLUTION;CHECK_TEST" "SOURCES;LINK;CPU_TESTS;GPU_TESTS"
                        ${ARGN})
  string(REGEX MATCH "^[0-9][0-9]" number "${lab_dir}")
  string(REPLACE "-" "_" factory "make_lab_${lab_dir}")
  set(target cudalab_lab${number})
  if(arg_EXERCISE)
    # The lab's own sources once, linked with either the exercise or the solution.
    add_library(${target}_common OBJECT ${arg_SOURCES})
    target_link_libraries(${target}_common PUBLIC cudalab::framework ${arg_LINK}
                          PRIVATE cudalab::options)
    add_library(${target} STATIC ${arg_EXERCISE})
    target_link_libraries(${target} PUBLIC ${target}_common PRIVATE cudalab::options)
  else()
    add_library(${target} STATIC ${arg_SOURCES})
    target_link_libraries(${target} PUBLIC cudalab::framework ${arg_LINK} PRIVATE cudalab::options)
  endif()
  set_property(GLOBAL APPEND PROPERTY CUDALAB_LAB_FACTORIES ${factory})
  set_property(GLOBAL APPEND PROPERTY CUDALAB_LAB_TARGETS ${target})
  if(arg_CPU_TESTS)
    cudalab_add_gtest(test_lab${number}_cpu SOURCES ${arg_CPU_TESTS}
                      LABELS "cpu;lab${number}" LINK ${target})
  endif()
  if(arg_GPU_TESTS)
    cudalab_add_gtest(test_lab${number}_gpu SOURCES ${arg_GPU_TESTS}
                      LABELS "gpu;lab${number}" LINK ${target})
  endif()
  if(arg_SOLUTION)
    add_library(${target}_solution STATIC ${arg_SOLUTION})
    target_link_libraries(${target}_solution PUBLIC ${target}_common PRIVATE cudalab::options)
    if(arg_CHECK_TEST)
      foreach(build IN ITEMS exercise solution)
        if(build STREQUAL "exercise")
          set(lib ${target})
          set(expect 0)
        else()
          set(lib ${target}_solution)
          set(expect 1)
        endif()
        cudalab_add_gtest(test_lab${number}_check_${build} SOURCES ${arg_CHECK_TEST}
                          LABELS "gpu;lab${number}" LINK ${lib})
        if(TARGET test_lab${number}_check_${build})
          target_compile_definitions(test_lab${number}_check_${build} PRIVATE
                                     CUDALAB_EXPECT_CHECK_PASS=${expect})
        endif()
      endforeach()
    endif()
  endif()
endfunction()

# Writes the list of registered labs into one source file and a library the tool links.
function(cudalab_finish_lab_registry)
  get_property(factories GLOBAL PROPERTY CUDALAB_LAB_FACTORIES)
  get_property(targets GLOBAL PROPERTY CUDALAB_LAB_TARGETS)
  set(decls "")
  set(calls "")
  foreach(f IN LISTS factories)
    string(APPEND decls "lab ${f}();\n")
    string(APPEND calls "      ${f}(),\n")
  endforeach()
  set(out ${CMAKE_BINARY_DIR}/generated/all_labs.cpp)
  configure_file(${PROJECT_SOURCE_DIR}/labs/framework/src/all_labs.cpp.in ${out} @ONLY)
  add_library(cudalab_all_labs STATIC ${out})
  target_link_libraries(cudalab_all_labs PUBLIC ${targets} cudalab::framework PRIVATE cudalab::options)
  add_library(cudalab::all_labs ALIAS cudalab_all_labs)
endfunction()

# cudalab_embed_sass(<target> LIBRARY <kernels target> MATCHING <regex> NAMESPACE <ns>)
# Adds to <target> a generated source defining <ns>::embedded_sass (the SASS of the library's
# functions whose mangled names match <regex>, as cuobjdump -sass prints it) and
# <ns>::embedded_sass_unavailable (why it is empty, or ""). It is regenerated whenever the
# library is rebuilt, so an instruction model always walks the code that was compiled.
# cuobjdump comes from the CUDA Toolkit, or from the copy scripts/setup.sh puts in .tools/.
function(cudalab_embed_sass target)
  cmake_parse_arguments(arg "" "LIBRARY;MATCHING;NAMESPACE" "" ${ARGN})
  find_program(CUDALAB_CUOBJDUMP cuobjdump
               HINTS ${CUDAToolkit_BIN_DIR} ${PROJECT_SOURCE_DIR}/.tools/cuda/nvidia/cu13/bin)
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  set(cuobjdump "${CUDALAB_CUOBJDUMP}")
  if(NOT CUDALAB_CUOBJDUMP)
    message(WARNING "cuobjdump not found: the instruction predictions of ${target} will say "
                    "so (run scripts/setup.sh, which installs it)")
    set(cuobjdump NONE)
  endif()
  set(out ${CMAKE_CURRENT_BINARY_DIR}/generated/${target}_sass.cpp)
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/generated
    COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/cmake/embed_sass.py ${cuobjdump}
            $<TARGET_FILE:${arg_LIBRARY}> "${arg_MATCHING}" ${arg_NAMESPACE} ${out}
    DEPENDS ${arg_LIBRARY} ${PROJECT_SOURCE_DIR}/cmake/embed_sass.py
    COMMENT "Embedding the SASS of ${arg_LIBRARY} (${arg_MATCHING}) into ${target}"
    VERBATIM)
  target_sources(${target} PRIVATE ${out})
endfunction()
