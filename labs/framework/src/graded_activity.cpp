#include "cudalab/graded_activity.hpp"

#include "cudalab/check.hpp"
#include "cudalab/device.hpp"
#include "cudalab/format_text.hpp"
#include "cudalab/host_data.hpp"
#include "cudalab/stream.hpp"

#include <algorithm>
#include <utility>

namespace cudalab {
namespace {

// A kernel's name (kernel_display_name's) as a grader line shows it: its own name and template
// arguments without its namespaces, and long template lists cut to fit the line.
std::string short_name(std::string name) {
  std::size_t start = 0;
  int depth = 0;  // inside template arguments, a "::" is an argument's, not the name's
  for (std::size_t i = 0; i + 1 < name.size(); ++i) {
    if (name[i] == '<') ++depth;
    if (name[i] == '>') --depth;
    if (depth == 0 && name[i] == ':' && name[i + 1] == ':') start = i + 2;
  }
  name.erase(0, start);
  constexpr std::size_t longest = 48;
  return name.size() <= longest ? name : name.substr(0, longest - 3) + "...";
}

std::size_t bytes_of(const std::vector<data_movement>& moves) {
  std::size_t total = 0;
  for (const auto& m : moves) total += m.bytes;
  return total;
}

}  // namespace

gpu_activity graded_launch_activity(const variant& v, const launch_config& config,
                                    verify_result* verification) {
  if (!v.prepare) return {false, "the variant has nothing to launch", {}, {}};
  // Inputs no earlier launch saw: an answer cached from the measured runs is wrong here.
  const input_variation_scope inputs(fresh_input_variation());
  cuda_stream stream;
  std::unique_ptr<prepared_variant> prepared = v.prepare(config, stream.get());
  prepared->upload(stream.get());
  prepared->reset(stream.get());
  stream.synchronize();
  gpu_activity_recorder recorder;
  try {
    prepared->launch(stream.get());
  } catch (const error&) {
    // A launch that fails (lab 07's planted launch bugs) still ran what it ran: the verdict on
    // its result is the "correct" line's.
  }
  gpu_activity activity = recorder.finish();
  cudaGetLastError();  // what the failed launch left is the launch's, not the inventory's
  // The inventoried launch must be right too: a launcher that behaves one way while it is
  // timed and verified and another later (it saw the counters' capture, or a cache) is caught.
  if (verification) {
    try {
      prepared->download(stream.get());
      *verification = prepared->verify();
    } catch (const error& e) {
      *verification = {false, e.what()};
    }
  }
  return activity;
}

// The lab's own kernels (the kit's kernel library, namespaces cudalab::matmul, ::reduction,
// ::transpose...) are the references' and the lesson's answers: an exercise that launches them
// did not write its kernel. The learner's file puts its kernels in cudalab::labs or its own.
bool is_the_kits_kernel(const std::string& name) {
  return name.rfind("cudalab::", 0) == 0 && name.rfind("cudalab::labs::", 0) != 0;
}

void add_activity_lines(grade_report& report, const gpu_activity& exercise,
                        const std::vector<gpu_activity>& references, bool learners_code,
                        const verify_result* verification) {
  if (!exercise.available) {
    report.add("kernels", false, "kernels n/a: " + exercise.reason,
               "The grader must see what the launch runs: " + exercise.reason + ".");
    return;
  }
  std::vector<std::string> own, foreign;
  for (const auto& k : exercise.kernels) {
    const bool kits = learners_code && k.own && is_the_kits_kernel(k.name);
    auto& list = k.own && !kits ? own : foreign;
    const std::string entry = short_name(k.name) + (kits    ? " (the lab's own kernel)"
                                                    : k.own ? ""
                                                            : " (" + k.launched_by + ")");
    if (std::find(list.begin(), list.end(), entry) == list.end()) list.push_back(entry);
  }
  std::string text = "kernels " + std::to_string(exercise.kernels.size());
  if (exercise.kernels.empty())
    text += ": none ran";
  else if (foreign.empty())
    text += ", all the exercise's own (" + joined(own) + ")";
  else
    text += ", not the exercise's own: " + joined(foreign);
  report.add("kernels", !exercise.kernels.empty() && foreign.empty(), text,
             exercise.kernels.empty()
                 ? "The launch ran no kernel: the work must be done by the exercise's kernel."
                 : "Work done by a library's kernels, or by the lab's own, is not the exercise's: "
                   "write the kernel the lesson is about and launch only your own kernels.");
  if (verification && !verification->ok)
    report.add("inventoried_launch_correct", false,
               "the inventoried launch correct: " + verification->detail,
               "One more launch of the exercise, the one whose kernels were listed, got a wrong "
               "answer: every launch must compute the result, not only the ones that were timed.");

  std::size_t most = 0;  // copies and memsets of the references' launches, at the most
  for (const auto& r : references) most = std::max(most, r.copies.size());
  grade_line copies;
  copies.key = "copies_and_memsets";
  copies.measured = static_cast<double>(exercise.copies.size());
  copies.relation = "<=";
  copies.bound = static_cast<double>(most);
  copies.bound_from = "the references' launches";
  copies.ok = exercise.copies.size() <= most;
  copies.text =
      "copies and memsets " + std::to_string(exercise.copies.size()) +
      (exercise.copies.empty() ? ""
                               : " (" + format_bytes(double(bytes_of(exercise.copies))) + ")") +
      " <= " + std::to_string(most) + " (" + copies.bound_from + ")";
  if (!copies.ok)
    copies.hint = "The launch copies or sets memory (" + exercise.copies.front().what +
                  "): the copy engine or the host did work the kernel must do.";
  report.lines.push_back(std::move(copies));
}

}  // namespace cudalab
