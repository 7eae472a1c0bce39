// The ranges behind nvtx_ranges.hpp. NVTX hands the injection its table of function slots
// (nvtxDetail/nvtxTypes.h); the slots filled here are the push/pop ranges of the core and core2
// modules and the calls that create the handles those ranges name (domains, registered strings).
// A handle this library gives out is a pointer to a string it keeps for the life of the process,
// as NVTX requires of handles.
#include "nvtx_ranges.hpp"

#include <nvtx3/nvToolsExt.h>

#include <cstdint>
#include <cwchar>
#include <mutex>
#include <string>
#include <vector>

namespace cudalab::injection {
namespace {

struct open_range {
  nvtxDomainHandle_t domain;  // nullptr: the global domain
  std::string name;
};

thread_local std::vector<open_range> open_ranges;

// Handles live for the process: a program may use them until it exits.
std::mutex handles_lock;
std::vector<std::string*> handle_names;

const std::string* new_handle(std::string name) {
  std::lock_guard<std::mutex> guard(handles_lock);
  handle_names.push_back(new std::string(std::move(name)));
  return handle_names.back();
}

std::string narrow(const wchar_t* text) {
  std::string out;
  for (; text && *text; ++text) out += *text < 128 ? static_cast<char>(*text) : '?';
  return out;
}

std::string message_of(const nvtxEventAttributes_t* a) {
  if (!a) return "";
  switch (a->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII:
      return a->message.ascii ? a->message.ascii : "";
    case NVTX_MESSAGE_TYPE_UNICODE:
      return narrow(a->message.unicode);
    case NVTX_MESSAGE_TYPE_REGISTERED:
      return a->message.registered ? *reinterpret_cast<const std::string*>(a->message.registered)
                                   : "";
    default:
      return "";
  }
}

int push(nvtxDomainHandle_t domain, std::string message) {
  if (domain) message = *reinterpret_cast<const std::string*>(domain) + ":" + message;
  open_ranges.push_back({domain, std::move(message)});
  return static_cast<int>(open_ranges.size()) - 1;
}

// The innermost range of `domain` closes: NVTX's stacks are a thread's and a domain's.
int pop(nvtxDomainHandle_t domain) {
  for (auto r = open_ranges.rbegin(); r != open_ranges.rend(); ++r)
    if (r->domain == domain) {
      open_ranges.erase(std::next(r).base());
      return static_cast<int>(open_ranges.size());
    }
  return -1;  // NVTX's answer to a pop with nothing open
}

int range_push_a(const char* message) { return push(nullptr, message ? message : ""); }
int range_push_w(const wchar_t* message) { return push(nullptr, narrow(message)); }
int range_push_ex(const nvtxEventAttributes_t* a) { return push(nullptr, message_of(a)); }
int range_pop() { return pop(nullptr); }
int domain_range_push_ex(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* a) {
  return push(domain, message_of(a));
}
int domain_range_pop(nvtxDomainHandle_t domain) { return pop(domain); }
nvtxDomainHandle_t domain_create_a(const char* name) {
  return reinterpret_cast<nvtxDomainHandle_t>(
      const_cast<std::string*>(new_handle(name ? name : "")));
}
nvtxDomainHandle_t domain_create_w(const wchar_t* name) {
  return reinterpret_cast<nvtxDomainHandle_t>(const_cast<std::string*>(new_handle(narrow(name))));
}
nvtxStringHandle_t register_string_a(nvtxDomainHandle_t, const char* text) {
  return reinterpret_cast<nvtxStringHandle_t>(
      const_cast<std::string*>(new_handle(text ? text : "")));
}
nvtxStringHandle_t register_string_w(nvtxDomainHandle_t, const wchar_t* text) {
  return reinterpret_cast<nvtxStringHandle_t>(const_cast<std::string*>(new_handle(narrow(text))));
}

template <class Function>
void fill(NvtxFunctionTable table, unsigned size, unsigned id, Function* function) {
  if (table && id < size && table[id]) *table[id] = reinterpret_cast<NvtxFunctionPointer>(function);
}

}  // namespace

std::string nvtx_path_of_this_thread() {
  std::string path;
  for (const open_range& r : open_ranges) path += (path.empty() ? "" : "/") + r.name;
  return path;
}

}  // namespace cudalab::injection

extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(
    NvtxGetExportTableFunc_t get_export_table) {
  using namespace cudalab::injection;
  const auto* callbacks =
      static_cast<const NvtxExportTableCallbacks*>(get_export_table(NVTX_ETID_CALLBACKS));
  if (!callbacks || !callbacks->GetModuleFunctionTable) return 0;
  NvtxFunctionTable core = nullptr, core2 = nullptr;
  unsigned core_size = 0, core2_size = 0;
  if (!callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &core, &core_size) ||
      !callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &core2, &core2_size))
    return 0;
  fill(core, core_size, NVTX_CBID_CORE_RangePushA, &range_push_a);
  fill(core, core_size, NVTX_CBID_CORE_RangePushW, &range_push_w);
  fill(core, core_size, NVTX_CBID_CORE_RangePushEx, &range_push_ex);
  fill(core, core_size, NVTX_CBID_CORE_RangePop, &range_pop);
  fill(core2, core2_size, NVTX_CBID_CORE2_DomainRangePushEx, &domain_range_push_ex);
  fill(core2, core2_size, NVTX_CBID_CORE2_DomainRangePop, &domain_range_pop);
  fill(core2, core2_size, NVTX_CBID_CORE2_DomainCreateA, &domain_create_a);
  fill(core2, core2_size, NVTX_CBID_CORE2_DomainCreateW, &domain_create_w);
  fill(core2, core2_size, NVTX_CBID_CORE2_DomainRegisterStringA, &register_string_a);
  fill(core2, core2_size, NVTX_CBID_CORE2_DomainRegisterStringW, &register_string_w);
  return 1;
}
