# Helpers so that a test executable or a whole lab is a few lines, not a copied file.
include(GoogleTest OPTIONAL)

# What a test holds while it runs, from its labels, so that `ctest --resource-spec-file`
# (scripts/test.sh, scripts/gpu-suite.sh; the spec from scripts/cudalab_scripts/resources.py,
# one slot a card) runs the GPU tests side by side on different cards, never two on one card:
#   gpu              RESOURCE_GROUPS gpus:1: a card to itself, for its timings and counters
#   counters or ncu  RESOURCE_LOCK cupti: CUPTI profiling sessions in several processes
#                    interfere (seen on the H100 with ctest -j8), so tests that compare or
#                    probe counters profile one at a time, wherever their card is
# A GPU test runs its command through CUDALAB_ON_ALLOCATED_GPU, which gives it the card CTest
# allocated (CUDA_VISIBLE_DEVICES).
set(CUDALAB_ON_ALLOCATED_GPU ${CMAKE_CURRENT_LIST_DIR}/on_allocated_gpu.sh)
function(cudalab_test_resources labels out)
  set(props "")
  if("gpu" IN_LIST labels)
    list(APPEND props RESOURCE_GROUPS "gpus:1")
  endif()
  if("counters" IN_LIST labels OR "ncu" IN_LIST labels)
    list(APPEND props RESOURCE_LOCK cupti)
  endif()
  set(${out} "${props}" PARENT_SCOPE)
endfunction()

# cudalab_declare_test_resources(): the resources of every add_test() test of the current
# directory, by its labels; called at the end of each CMakeLists.txt that adds tests (CMake 3.25
# sets a test's properties only from its own directory). cudalab_check_test_resources() at the
# end of the top-level file stops the configure where a directory with tests never called it.
function(cudalab_declare_test_resources)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(test IN LISTS tests)
    get_test_property(${test} LABELS labels)
    cudalab_test_resources("${labels}" props)
    while(props)  # appended: a test may hold a lock of its own already
      list(POP_FRONT props name value)
      set_property(TEST ${test} APPEND PROPERTY ${name} ${value})
    endwhile()
  endforeach()
  set_property(GLOBAL APPEND PROPERTY CUDALAB_DIRECTORIES_WITH_RESOURCES ${CMAKE_CURRENT_SOURCE_DIR})
endfunction()

function(cudalab_check_test_resources dir)
  get_property(tests DIRECTORY ${dir} PROPERTY TESTS)
  get_property(declared GLOBAL PROPERTY CUDALAB_DIRECTORIES_WITH_RESOURCES)
  if(tests AND NOT dir IN_LIST declared)
    message(FATAL_ERROR "${dir} adds tests but never calls cudalab_declare_test_resources() at its end, "
                        "so its GPU tests would not hold a card")
  endif()
  get_property(subdirectories DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(subdirectory IN LISTS subdirectories)
    cudalab_check_test_resources(${subdirectory})
  endforeach()
endfunction()

# cudalab_add_gtest(<target> [PURE_CPU] SOURCES ... LABELS ... [LINK ...] [ENVIRONMENT ...]
#                   [LONG_CASES <regex>])
# One GoogleTest executable; every test case becomes a CTest test carrying LABELS and the
# resources they call for (cudalab_test_resources); the cases whose names match LONG_CASES also
# carry the label `long` (scripts/gpu-suite-split.sh gives them a part of their own).
# A case that calls GTEST_SKIP() is reported by CTest as skipped, never as passed.
# PURE_CPU: the test needs no CUDA (the access model); it links GTest's main instead of the
# GPU fixtures, so it builds and runs without the CUDA instrumentation library.
function(cudalab_add_gtest target)
  cmake_parse_arguments(arg "PURE_CPU" "LONG_CASES;PREFIX" "SOURCES;LABELS;LINK;ENVIRONMENT"
                        ${ARGN})
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
  # CMake 3.25 has no TEST_LAUNCHER; the emulator is the prefix gtest_discover_tests puts before
  # each case (and before the listing, which the launcher runs as it is).
  if("gpu" IN_LIST arg_LABELS)
    set_target_properties(${target} PROPERTIES CROSSCOMPILING_EMULATOR ${CUDALAB_ON_ALLOCATED_GPU})
  endif()
  gtest_discover_tests(${target} DISCOVERY_TIMEOUT 60 TEST_PREFIX "${arg_PREFIX}"
                       PROPERTIES ${props})
  # gtest_discover_tests flattens a list in PROPERTIES (LABELS "cpu;model" kept only "cpu"), so
  # the labels and resources are set by a script that CTest runs after the discovered-tests one.
  cudalab_test_resources("${arg_LABELS}" resources)
  list(JOIN resources " " resources)
  set(labels_file ${CMAKE_CURRENT_BINARY_DIR}/${target}_labels.cmake)
  string(CONFIGURE [=[
if(@target@_TESTS)
  set_tests_properties(${@target@_TESTS} PROPERTIES LABELS "@arg_LABELS@" @resources@)
  foreach(test IN LISTS @target@_TESTS)
    if(NOT "@arg_LONG_CASES@" STREQUAL "" AND test MATCHES "@arg_LONG_CASES@")
      set_tests_properties(${test} PROPERTIES LABELS "@arg_LABELS@;long")
    endif()
  endforeach()
endif()
]=] labels_script @ONLY)
  file(WRITE ${labels_file} "${labels_script}")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${labels_file})
endfunction()

# cudalab_add_lab(<NN-name> [LINK <library>...])
# Adds the lab in labs/<NN-name>/ from the files its folder holds, by their names:
#   harness/*.cpp, harness/*.cu  the lab's library; harness/lab.cpp defines
#                                cudalab::labs::make_lab_<NN_name>() and the harness/ folder is
#                                on the include path of the lab, its exercise and its tests
#   exercise.cu, solution.cu     the learner's kernel and the reference (both or neither)
#   tests/*_gpu_test.cpp|.cu     GPU tests: one executable, labels gpu;labNN
#   tests/*_test.cpp|.cu         every other test: CPU, one executable, labels cpu;labNN
# The files are found, not listed: a harness source or a test that sits in the folder is always
# built and run, where a hand-kept list lets a forgotten test never run without a sign. A source
# in tests/ that fits none of the names stops the configure, so a misnamed test cannot hide
# either. Helpers a test needs beyond these (a wrong-way kernel, say) go in a subfolder of
# tests/ and are added by the lab's CMakeLists.txt.
# With an exercise the lab is built twice: cudalab_labNN from exercise.cu (what the tool runs)
# and cudalab_labNN_solution from solution.cu, over one object library cudalab_labNN_common
# of the harness, and its grader's GPU tests are generated from its exercise_spec
# (cmake/cudalab_graded_tests.cmake): the untouched exercise fails on the lesson's lines, the
# solution passes, the fixed and naive variants pass and fail as the exercise, and each
# tests/wrong/*.cu and tests/right/*.cu, built in place of the exercise, fails on its line or
# passes.
function(cudalab_add_lab lab_dir)
  cmake_parse_arguments(arg "" "" "LINK" ${ARGN})
  string(REGEX MATCH "^[0-9][0-9]" number "${lab_dir}")
  string(REPLACE "-" "_" factory "make_lab_${lab_dir}")
  set(target cudalab_lab${number})
  set(dir ${CMAKE_CURRENT_SOURCE_DIR})

  file(GLOB harness CONFIGURE_DEPENDS ${dir}/harness/*.cpp ${dir}/harness/*.cu)
  if(NOT EXISTS ${dir}/harness/lab.cpp)
    message(FATAL_ERROR "labs/${lab_dir}: harness/lab.cpp (which defines ${factory}()) is missing")
  endif()
  set(exercise ${dir}/exercise.cu)
  set(solution ${dir}/solution.cu)
  if(EXISTS ${exercise} AND NOT EXISTS ${solution})
    message(FATAL_ERROR "labs/${lab_dir}: exercise.cu has no solution.cu beside it")
  endif()

  file(GLOB test_sources CONFIGURE_DEPENDS ${dir}/tests/*.cpp ${dir}/tests/*.cu)
  set(cpu_tests "")
  set(gpu_tests "")
  foreach(source IN LISTS test_sources)
    get_filename_component(name ${source} NAME)
    if(name MATCHES "_gpu_test\\.(cpp|cu)$")
      list(APPEND gpu_tests ${source})
    elseif(name MATCHES "_test\\.(cpp|cu)$")
      list(APPEND cpu_tests ${source})
    else()
      message(FATAL_ERROR "labs/${lab_dir}/tests/${name}: a test source is named *_test or "
                          "*_gpu_test (.cpp or .cu); helpers go in a subfolder")
    endif()
  endforeach()
  foreach(folder IN ITEMS wrong right)
    if(EXISTS ${dir}/tests/${folder} AND NOT EXISTS ${exercise})
      message(FATAL_ERROR "labs/${lab_dir}: tests/${folder}/ replaces an exercise.cu, which is missing")
    endif()
  endforeach()

  if(EXISTS ${exercise})
    add_library(${target}_common OBJECT ${harness})
    target_include_directories(${target}_common PUBLIC ${dir}/harness)
    target_link_libraries(${target}_common PUBLIC cudalab::framework ${arg_LINK}
                          PRIVATE cudalab::options)
    add_library(${target} STATIC ${exercise})
    target_link_libraries(${target} PUBLIC ${target}_common PRIVATE cudalab::options)
    add_library(${target}_solution STATIC ${solution})
    target_link_libraries(${target}_solution PUBLIC ${target}_common PRIVATE cudalab::options)
  else()
    add_library(${target} STATIC ${harness})
    target_include_directories(${target} PUBLIC ${dir}/harness)
    target_link_libraries(${target} PUBLIC cudalab::framework ${arg_LINK} PRIVATE cudalab::options)
  endif()
  set_property(GLOBAL APPEND PROPERTY CUDALAB_LAB_FACTORIES ${factory})
  set_property(GLOBAL APPEND PROPERTY CUDALAB_LAB_TARGETS ${target})

  if(cpu_tests)
    cudalab_add_gtest(test_lab${number}_cpu SOURCES ${cpu_tests}
                      LABELS "cpu;lab${number}" LINK ${target})
  endif()
  if(gpu_tests)
    cudalab_add_gtest(test_lab${number}_gpu SOURCES ${gpu_tests}
                      LABELS "gpu;lab${number}" LINK ${target})
  endif()
  if(EXISTS ${exercise})
    cudalab_add_graded_tests(${lab_dir} ${factory})
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
