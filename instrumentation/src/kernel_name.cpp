#include "cudalab/kernel_name.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace cudalab {

std::string kernel_display_name(const std::string& mangled) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), std::free);
  std::string name = status == 0 && demangled ? demangled.get() : mangled;
  // A template's demangled name starts with its return type ("void ns::k<8>(float*)"), and
  // "(anonymous namespace)" is not the parameter list.
  if (name.rfind("void ", 0) == 0) name = name.substr(5);
  for (std::size_t at; (at = name.find("(anonymous namespace)")) != std::string::npos;)
    name.replace(at, 21, "{anonymous}");
  const auto paren = name.find('(');
  return paren == std::string::npos ? name : name.substr(0, paren);
}

std::string kernel_display_name(const char* mangled) {
  return mangled ? kernel_display_name(std::string(mangled)) : "(unnamed kernel)";
}

}  // namespace cudalab
