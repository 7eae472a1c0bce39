# The GPU tests of a lab's grader, generated from its exercise_spec: one source,
# labs/framework/testing/graded_exercise_test.cpp, compiled once for each build of the exercise
# (that file says what each build must show). cudalab_add_lab calls this for a lab with an
# exercise.
set(CUDALAB_GRADED_EXERCISE_TEST ${CMAKE_CURRENT_LIST_DIR}/../labs/framework/testing/graded_exercise_test.cpp
    CACHE INTERNAL "")
set(CUDALAB_GRADED_WAYS_LISTED_TEST
    ${CMAKE_CURRENT_LIST_DIR}/../labs/framework/testing/graded_ways_listed_test.cpp CACHE INTERNAL "")

# cudalab_add_graded_test(<NN> <name> <factory> <library> <definition>): test_labNN_<name>,
# the generated test linked with <library> (an exercise's build of the lab) and compiled with
# <definition> (CUDALAB_GRADES_...), its cases listed as labNN.<suite>.<case>. Labels gpu;labNN;
# grader (scripts/gpu-suite-split.sh runs the graders apart: they are most of the GPU tests' time).
function(cudalab_add_graded_test number name factory library definition)
  set(target test_lab${number}_${name})
  cudalab_add_gtest(${target} SOURCES ${CUDALAB_GRADED_EXERCISE_TEST} LABELS "gpu;lab${number};grader"
                    LINK ${library} PREFIX "lab${number}.")
  if(TARGET ${target})
    target_compile_definitions(${target} PRIVATE CUDALAB_MAKE_LAB=${factory} ${definition})
  endif()
endfunction()

# cudalab_add_graded_tests(<NN-name> <factory>): the untouched exercise (test_labNN_check_untouched),
# the solution (test_labNN_check_solution), the lab's variants as the exercise (test_labNN_grader),
# and every tests/wrong/<way>.cu and tests/right/<way>.cu, each built as the exercise of its own
# lab library cudalab_labNN_<wrong|right>_<way> from the lab's common objects
# (test_labNN_<wrong|right>_<way>). A way's expected verdict is in the exercise_spec, not here.
function(cudalab_add_graded_tests lab_dir factory)
  string(REGEX MATCH "^[0-9][0-9]" number "${lab_dir}")
  set(lab cudalab_lab${number})
  cudalab_add_graded_test(${number} check_untouched ${factory} ${lab} CUDALAB_GRADES_UNTOUCHED)
  cudalab_add_graded_test(${number} check_solution ${factory} ${lab}_solution CUDALAB_GRADES_SOLUTION)
  cudalab_add_graded_test(${number} grader ${factory} ${lab} CUDALAB_GRADES_VARIANTS)
  foreach(kind IN ITEMS wrong right)
    string(TOUPPER ${kind} macro_kind)
    file(GLOB ways CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tests/${kind}/*.cu)
    set(built_${kind} "")
    foreach(way IN LISTS ways)
      get_filename_component(name ${way} NAME_WE)
      # The name becomes a test's name and a C++ identifier.
      if(NOT name MATCHES "^[a-z][a-z0-9_]*$")
        message(FATAL_ERROR "labs/${lab_dir}/tests/${kind}/${name}.cu: a way's name is lower case "
                            "letters, digits and underscores, starting with a letter")
      endif()
      string(APPEND built_${kind} "${name},")
      set(way_lab ${lab}_${kind}_${name})
      add_library(${way_lab} STATIC ${way})
      target_link_libraries(${way_lab} PUBLIC ${lab}_common PRIVATE cudalab::options)
      cudalab_add_graded_test(${number} ${kind}_${name} ${factory} ${way_lab}
                              CUDALAB_GRADES_${macro_kind}_WAY=${name})
    endforeach()
  endforeach()
  # The ways built here against the ways the spec lists, on the CPU.
  set(listed test_lab${number}_graded_ways)
  cudalab_add_gtest(${listed} SOURCES ${CUDALAB_GRADED_WAYS_LISTED_TEST} LABELS "cpu;lab${number}"
                    LINK ${lab} PREFIX "lab${number}.")
  if(TARGET ${listed})
    target_compile_definitions(${listed} PRIVATE CUDALAB_MAKE_LAB=${factory}
                               CUDALAB_BUILT_WRONG_WAYS="${built_wrong}"
                               CUDALAB_BUILT_RIGHT_WAYS="${built_right}")
  endif()
endfunction()
