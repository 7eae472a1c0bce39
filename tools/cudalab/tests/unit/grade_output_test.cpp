// The grade as `check` prints it. The criterion lines carry their numbers and the references'
// beside them, so a real one runs past 120 columns (lab 04's sectors-a-request line, measured
// at 150 on an H100); the hint is a paragraph. The text must fit the tool's columns and lose no
// word; the JSON keeps each line whole.
#include "grade_output.hpp"

#include "cudalab/user_text.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>
#include <string>
#include <vector>

namespace cudalab::tool {
namespace {

const std::string long_text =
    "ld sectors/request 12.00 <= 4.00 (128 bytes asked a request fill 4.00 sectors; references: "
    "aos_float3_staged 4.00, aos_float4 16.00, soa 4.00)";

lab lab_with_exercise() {
  lab l;
  l.id = "04-coalescing";
  exercise_spec ex;
  ex.file = "labs/04-coalescing/exercise.cu";
  l.exercise = ex;
  return l;
}

grade_outcome failed_outcome() {
  grade_outcome o;
  grade_line correct;
  correct.key = "correct";
  correct.text = "correct: max abs err 0 (exact), in place and out";
  correct.ok = true;
  grade_line per_request;
  per_request.key = "ld_sectors_per_request";
  per_request.text = long_text;
  per_request.measured = 12.0;
  per_request.relation = "<=";
  per_request.bound = 4.0;
  per_request.bound_from = "128 bytes asked a request fill 4.00 sectors";
  for (int i = 0; i < 12; ++i)
    per_request.hint += std::string(i ? " " : "") +
                        "Make lane k of a warp touch the bytes "
                        "next to lane k-1's.";
  o.report.lines = {correct, per_request};
  return o;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Every word of `text`, in order, blanks collapsed.
std::string words_of(const std::string& text) {
  std::istringstream in(text);
  std::string word, all;
  while (in >> word) all += word + " ";
  return all;
}

TEST(grade_text, fits_120_columns_and_loses_no_word) {
  std::ostringstream out;
  write_grade_text(out, lab_with_exercise(), failed_outcome());
  const std::vector<std::string> lines = lines_of(out.str());
  for (const std::string& line : lines) EXPECT_LE(line.size(), output_columns) << line;
  const grade_outcome o = failed_outcome();
  std::string expected = "cudalab check 04-coalescing: labs/04-coalescing/exercise.cu ";
  for (const grade_line& line : o.report.lines)
    expected += line.text + grade_verdict(line.ok) + " ";
  expected += "FAIL hint: " + o.report.hint();
  EXPECT_EQ(words_of(out.str()), words_of(expected));
}

TEST(grade_text, a_long_criterion_goes_on_indented_and_keeps_its_verdict_last) {
  std::ostringstream out;
  write_grade_text(out, lab_with_exercise(), failed_outcome());
  const std::vector<std::string> lines = lines_of(out.str());
  ASSERT_GE(lines.size(), 5u);
  EXPECT_EQ(lines[1], "  correct: max abs err 0 (exact), in place and out  ok");
  EXPECT_EQ(lines[2].rfind("  ld sectors/request 12.00 <= 4.00", 0), 0u) << lines[2];
  EXPECT_EQ(lines[3].rfind("      ", 0), 0u) << lines[3];
  EXPECT_EQ(lines[3].substr(lines[3].size() - 4), "FAIL") << lines[3];
  EXPECT_EQ(lines[4], "FAIL");
  EXPECT_EQ(lines[5].rfind("hint: Make lane k", 0), 0u) << lines[5];
}

TEST(grade_text, a_pass_prints_no_hint) {
  grade_outcome o = failed_outcome();
  o.report.lines.pop_back();
  std::ostringstream out;
  write_grade_text(out, lab_with_exercise(), o);
  EXPECT_EQ(out.str(),
            "cudalab check 04-coalescing: labs/04-coalescing/exercise.cu\n"
            "  correct: max abs err 0 (exact), in place and out  ok\nPASS\n");
}

// Under the memory tracer some lines cannot be measured and pass as n/a; the verdict must not
// read as a full pass.
TEST(grade_text, a_pass_that_stands_without_some_lines_says_how_many) {
  grade_outcome o = failed_outcome();
  o.report.lines.pop_back();
  o.report.add_unchecked("other_memory_paths", "other memory paths n/a: the tracer cannot see");
  o.report.add_unchecked("speed", "speed n/a: timed under the memory tracer");
  ASSERT_TRUE(o.report.passed());
  std::ostringstream out;
  write_grade_text(out, lab_with_exercise(), o);
  const std::vector<std::string> lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 5u) << out.str();
  EXPECT_EQ(lines[4], "PASS without 2 lines (n/a above): a run with hardware counters checks them");
  std::ostringstream json;
  write_grade_json(json, lab_with_exercise(), o);
  const nlohmann::json doc = nlohmann::json::parse(json.str());
  EXPECT_TRUE(doc["passed"].get<bool>());
  EXPECT_EQ(doc["unchecked"], 2);
  EXPECT_TRUE(doc["criteria"][0]["checked"].get<bool>());
  EXPECT_FALSE(doc["criteria"][2]["checked"].get<bool>());
}

// The hanging indent both check's lines and the tool's "  fix:" lines are written with.
TEST(hanging_lines, keep_a_fitting_text_as_written_and_wrap_the_rest_under_its_label) {
  EXPECT_EQ(hanging_lines("  ", "      ", "a  ok", 120), std::vector<std::string>{"  a  ok"});
  const std::vector<std::string> lines = hanging_lines("  fix: ", "       ", "one two three", 16);
  EXPECT_EQ(lines, (std::vector<std::string>{"  fix: one two", "       three"}));
}

TEST(grade_json, keeps_each_criterion_whole_with_its_key_numbers_and_verdict) {
  std::ostringstream out;
  write_grade_json(out, lab_with_exercise(), failed_outcome());
  const nlohmann::json doc = nlohmann::json::parse(out.str());
  EXPECT_EQ(doc["lab"], "04-coalescing");
  EXPECT_EQ(doc["graded_from"], "counters");
  EXPECT_FALSE(doc["passed"].get<bool>());
  ASSERT_EQ(doc["criteria"].size(), 2u);
  EXPECT_TRUE(doc["criteria"][0]["ok"].get<bool>());
  EXPECT_EQ(doc["criteria"][0]["key"], "correct");
  EXPECT_TRUE(doc["criteria"][0]["measured"].is_null());
  EXPECT_TRUE(doc["criteria"][0]["relation"].is_null());
  EXPECT_EQ(doc["criteria"][0]["hint"], "");
  const nlohmann::json& c = doc["criteria"][1];
  EXPECT_EQ(c["key"], "ld_sectors_per_request");
  EXPECT_EQ(c["criterion"], long_text);
  EXPECT_EQ(c["measured"].get<double>(), 12.0);
  EXPECT_EQ(c["relation"], "<=");
  EXPECT_EQ(c["bound"].get<double>(), 4.0);
  EXPECT_EQ(c["bound_from"], "128 bytes asked a request fill 4.00 sectors");
  EXPECT_FALSE(c["ok"].get<bool>());
  EXPECT_EQ(c["hint"], failed_outcome().report.lines[1].hint);
  EXPECT_EQ(doc["hint"], failed_outcome().report.hint());
}

TEST(grade_json, lists_what_the_exercises_launch_ran) {
  grade_outcome o = failed_outcome();
  o.activity.available = true;
  o.activity.kernels = {{"sm90_xmma_gemm_f32f32", "libcublasLt.so.13", false}};
  o.activity.copies = {{"copy device to device", 4004}};
  std::ostringstream out;
  write_grade_json(out, lab_with_exercise(), o);
  const nlohmann::json ran = nlohmann::json::parse(out.str())["launch_ran"];
  EXPECT_TRUE(ran["recorded"].get<bool>());
  ASSERT_EQ(ran["kernels"].size(), 1u);
  EXPECT_EQ(ran["kernels"][0]["name"], "sm90_xmma_gemm_f32f32");
  EXPECT_EQ(ran["kernels"][0]["launched_by"], "libcublasLt.so.13");
  EXPECT_FALSE(ran["kernels"][0]["own"].get<bool>());
  ASSERT_EQ(ran["copies"].size(), 1u);
  EXPECT_EQ(ran["copies"][0]["bytes"], 4004);
}

TEST(grade_json, says_why_no_inventory_was_taken) {
  grade_outcome o = failed_outcome();
  o.activity.reason = "CUPTI is held by another tool";
  std::ostringstream out;
  write_grade_json(out, lab_with_exercise(), o);
  const nlohmann::json ran = nlohmann::json::parse(out.str())["launch_ran"];
  EXPECT_FALSE(ran["recorded"].get<bool>());
  EXPECT_EQ(ran["reason"], "CUPTI is held by another tool");
  EXPECT_TRUE(ran["kernels"].empty());
}

}  // namespace
}  // namespace cudalab::tool
