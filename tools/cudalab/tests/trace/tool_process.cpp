#include "tool_process.hpp"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace cudalab::testing {
namespace {

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

tool_result run_tool(const std::vector<std::string>& args, const std::vector<std::string>& env) {
  const std::string base = ::testing::TempDir() + "cudalab_tool_" + std::to_string(::getpid());
  std::string command = "env";
  for (const auto& e : env) command += " " + quoted(e);
  command += " " + quoted(CUDALAB_TOOL);
  for (const auto& a : args) command += " " + quoted(a);
  command += " >" + quoted(base + ".out") + " 2>" + quoted(base + ".err");
  const int status = std::system(command.c_str());
  tool_result r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(base + ".out");
  r.err = slurp(base + ".err");
  std::remove((base + ".out").c_str());
  std::remove((base + ".err").c_str());
  return r;
}

}  // namespace cudalab::testing
