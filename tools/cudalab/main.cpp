// cudalab: the command-line tool of the lab kit.
//   cudalab list | run <lab> | check <lab> | profile -- PROGRAM | device | doctor | metrics
// main() is a function-try-block: every error becomes one line on stderr and an exit code.
#include "commands.hpp"
#include "environment.hpp"
#include "error_text.hpp"

#include "cudalab/check.hpp"
#include "cudalab/user_text.hpp"

#include <boost/program_options/errors.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <new>

namespace {

const char* const usage = R"(cudalab: a CUDA debugging and profiling lab kit

usage: cudalab <command> [options]      cudalab <command> --help for its options

commands:
  list              the labs, their variants and what each one teaches
  run <lab>         run a lab's variants: time, verify, hardware counters beside the model
  check <lab>       grade your exercise (labs/NN-name/exercise.cu) by its counters
  profile -- PROG   your own CUDA program's kernels: sectors, waste, conflicts (memory tracer)
  device            what the GPU offers (memory, SMs, clocks, limits, theoretical peaks)
  metrics           the hardware-counter catalogue and the named metric sets
  doctor            is everything in place? GPU, driver, counters, Nsight tools

exit codes: 0 ok, 1 failure (CUDA error, a variant that must verify did not),
            2 bad input, 3 no CUDA device, 4 counters disagree with the model
environment:  CUDALAB_* variables, checked like options: docs/environment.md
)";

// Everything printed reached standard output: a full disk or a closed descriptor is a failure
// (exit 1), not a silent success.
int finish_standard_output(int code) {
  errno = 0;
  std::cout.flush();
  const bool failed = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout);
  if (!failed) return code;
  const int why = errno;
  std::cerr << "cudalab: cannot write to standard output ("
            << (why ? std::strerror(why) : "write error") << ")\n";
  return cudalab::tool::exit_failure;
}

// Every error is one line: control characters escaped, long quoted values cut; its fix or hint,
// if any, under it ("  fix: " first, the rest indented under it), all within 120 columns.
int report(const std::string& message, const std::string& label, const std::string& hint,
           int code) {
  for (const std::string& line : cudalab::tool::message_lines(message, label, hint))
    std::cerr << line << "\n";
  return code;
}

int run_command_line(int argc, char** argv);

}  // namespace

int main(int argc, char** argv) { return finish_standard_output(run_command_line(argc, argv)); }

namespace {

int run_command_line(int argc, char** argv) try {
  using namespace cudalab::tool;
  if (argc < 2) {
    std::cerr << "cudalab: no command given: usage: cudalab <command> [options] (cudalab --help "
                 "lists them)\n";
    return exit_usage;
  }
  const std::string command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << usage;
    return exit_ok;
  }
  if (command == "--version") {
    std::cout << "cudalab " << CUDALAB_VERSION << "\n";
    return exit_ok;
  }
  const args rest(argv + 2, argv + argc);
  static const std::map<std::string, int (*)(const args&)> commands{
      {"list", list_command},      {"run", run_command},       {"check", check_command},
      {"device", device_command},  {"doctor", doctor_command}, {"metrics", metrics_command},
      {"profile", profile_command}};
  const auto it = commands.find(command);
  if (it == commands.end()) {
    std::cerr
        << "cudalab: unknown command '" << cudalab::shown(command)
        << "' (commands: list, run, check, profile, device, metrics, doctor; see cudalab --help)\n";
    return exit_usage;
  }
  check_environment();
  return it->second(rest);
} catch (const cudalab::usage_error& e) {
  return report(e.what(), "fix", e.hint(), cudalab::tool::exit_usage);
} catch (const boost::program_options::error& e) {
  return report(e.what(), "", "", cudalab::tool::exit_usage);
} catch (const cudalab::no_device_error& e) {
  return report(e.what(), "fix", e.hint(), cudalab::tool::exit_no_gpu);
} catch (const cudalab::error& e) {
  return report(e.what(), "hint", e.hint(), cudalab::tool::exit_failure);
} catch (const std::bad_alloc&) {
  return report("out of memory: narrow --size, --block or --sweep, or raise the limit (ulimit -v)",
                "", "", cudalab::tool::exit_failure);
} catch (const std::exception& e) {
  return report(e.what(), "", "", cudalab::tool::exit_failure);
}

}  // namespace
