# cmake -DPROGRAM=... -DSUBMISSION=... "-DEXPECT=text one|text two" -P expect_failure.cmake
#
# Passes when PROGRAM --submission SUBMISSION fails (exit status not 0) and its
# output holds every EXPECT text: a wrong submission must fail, and say why in
# words a student can act on.
execute_process(COMMAND ${PROGRAM} --submission ${SUBMISSION}
                RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
message("${output}")
if(status EQUAL 0)
  message(FATAL_ERROR "${SUBMISSION} passed the grading test; it should have failed")
endif()
# Catch2 wraps long messages at 80 columns: compare with all white space removed.
string(REGEX REPLACE "[ \t\r\n]+" "" flat_output "${output}")
string(REPLACE "|" ";" expect_list "${EXPECT}")
foreach(text IN LISTS expect_list)
  string(REGEX REPLACE "[ \t\r\n]+" "" flat_text "${text}")
  string(FIND "${flat_output}" "${flat_text}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the failure report of ${SUBMISSION} does not say \"${text}\"")
  endif()
endforeach()
