// Shared Boost.Program_options plumbing for the subcommands.
#pragma once

#include "commands.hpp"

#include <boost/program_options.hpp>

#include <string>

namespace cudalab {
struct lab;
}

namespace cudalab::tool {

namespace po = boost::program_options;

// Parses `a` against `options` (+ positionals); returns false and prints help for --help.
bool parse_options(const args& a, const std::string& usage_line, po::options_description& options,
                   const po::positional_options_description& positional, po::variables_map& vm);

// An integer option value from its text, with the option's name in the error.
int parse_int_option(const std::string& option, const std::string& text, int min, int max);

// The lab a learner named ("04", "coalescing", "04-coalescing"); usage_error otherwise.
const lab& lab_named(const std::string& name);

}  // namespace cudalab::tool
