// The two ways `cudalab check` prints a grade: as text for the learner, every line within the
// tool's 120 columns, and as JSON for autograders.
#pragma once

#include "error_text.hpp"

#include "cudalab/grade.hpp"
#include "cudalab/lab.hpp"

#include <ostream>

namespace cudalab::tool {

// The exercise's file, one line per criterion ending in its verdict, PASS or FAIL, and on FAIL
// the hint. A criterion or hint too long for the columns goes on under its first line,
// indented, broken at spaces.
void write_grade_text(std::ostream& out, const lab& l, const grade_outcome& outcome);

// The grade as data: every criterion with its verdict (null where the line has none), PASS or
// FAIL, the hint, and which witness measured the traffic.
void write_grade_json(std::ostream& out, const lab& l, const grade_outcome& outcome);

}  // namespace cudalab::tool
