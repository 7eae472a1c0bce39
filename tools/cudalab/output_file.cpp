#include "output_file.hpp"

#include "cudalab/check.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

namespace cudalab::tool {

atomic_output::atomic_output(std::string path)
    : m_path(std::move(path)), m_temp(m_path + ".tmp." + std::to_string(::getpid())) {
  if (m_path.empty()) throw usage_error("--output: empty file name");
  std::ofstream probe(m_temp, std::ios::trunc);
  if (!probe)
    throw usage_error("--output '" + m_path + "': cannot write there (" + std::strerror(errno) + ")");
}

atomic_output::~atomic_output() {
  if (!m_committed) std::remove(m_temp.c_str());
}

void atomic_output::commit(const std::string& text) {
  {
    std::ofstream out(m_temp, std::ios::trunc | std::ios::binary);
    out << text;
    out.flush();
    if (!out) throw error("--output '" + m_path + "': write failed (" + std::strerror(errno) + ")");
  }
  if (std::rename(m_temp.c_str(), m_path.c_str()) != 0)
    throw error("--output '" + m_path + "': rename failed (" + std::strerror(errno) + ")");
  m_committed = true;
}

}  // namespace cudalab::tool
