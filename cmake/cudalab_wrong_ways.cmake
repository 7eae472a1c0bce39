# The build of either kind: cudalab_add_graded_ways(<wrong|right> <NN-name> TEST ... KERNELS ...).
function(cudalab_add_graded_ways kind lab_dir)
  cmake_parse_arguments(arg "" "TEST" "KERNELS" ${ARGN})
  string(REGEX MATCH "^[0-9][0-9]" number "${lab_dir}")
  string(TOUPPER "${kind}" macro_kind)
  set(common cudalab_lab${number}_common)
  if(NOT TARGET ${common})
    message(FATAL_ERROR "cudalab_add_${kind}_ways(${lab_dir}): the lab has no exercise to replace")
  endif()
  foreach(kernel IN LISTS arg_KERNELS)
    get_filename_component(name ${kernel} NAME_WE)
    set(lib cudalab_lab${number}_${kind}_${name})
    add_library(${lib} STATIC ${kernel})
    target_link_libraries(${lib} PUBLIC ${common} PRIVATE cudalab::options)
    cudalab_add_gtest(test_lab${number}_${kind}_${name} SOURCES ${arg_TEST}
                      LABELS "gpu;lab${number}" LINK ${lib})
    if(TARGET test_lab${number}_${kind}_${name})
      target_compile_definitions(test_lab${number}_${kind}_${name}
                                 PRIVATE CUDALAB_${macro_kind}_WAY=${name})
    endif()
  endforeach()
endfunction()

# cudalab_add_wrong_ways(<NN-name> TEST <test source> KERNELS <file.cu> ...)
# Wrong ways of doing a lab's exercise, kept as test inputs: each KERNELS file replaces the
# exercise (it defines the same exercise variant) and gets the correct answer without the
# lesson's technique. Each is built as its own lab library, cudalab_labNN_wrong_<name>, from
# the lab's common objects (cudalab_add_lab with EXERCISE), and TEST is compiled against it as
# test_labNN_wrong_<name> with CUDALAB_WRONG_WAY=<name>, so the test can assert that the
# grader FAILS that kernel and which line fails. Labels gpu and labNN.
function(cudalab_add_wrong_ways lab_dir)
  cudalab_add_graded_ways(wrong ${lab_dir} ${ARGN})
endfunction()

# cudalab_add_right_ways(<NN-name> TEST <test source> KERNELS <file.cu> ...)
# Honest alternatives to the solution (tests/right/*.cu), built as wrong ways are, each as the
# exercise of its own lab library cudalab_labNN_right_<name>; TEST is compiled against it as
# test_labNN_right_<name> with CUDALAB_RIGHT_WAY=<name> and asserts that the grader PASSES it.
function(cudalab_add_right_ways lab_dir)
  cudalab_add_graded_ways(right ${lab_dir} ${ARGN})
endfunction()
