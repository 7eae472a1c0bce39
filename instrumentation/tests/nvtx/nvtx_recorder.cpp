// The recorder behind nvtx_recorder.hpp: a CUPTI callback that keeps the domain and string
// handles NVTX hands out, and one push/pop stack per thread and domain, as NVTX defines them.
#include "nvtx_recorder.hpp"

#include <cupti.h>
#include <generated_nvtx_meta.h>

#include <link.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <utility>

namespace cudalab::testing {

struct nvtx_recorder::state {
  mutable std::mutex lock;
  CUpti_SubscriberHandle subscriber = nullptr;
  std::size_t callbacks = 0;
  std::map<nvtxDomainHandle_t, std::string> domains;
  std::map<nvtxStringHandle_t, std::string> strings;
  // Open ranges (indices into `ranges`) per thread and domain.
  std::map<std::pair<std::thread::id, nvtxDomainHandle_t>, std::vector<std::size_t>> stacks;
  std::vector<nvtx_range> ranges;
  std::vector<std::string> problems;

  std::string domain_name(nvtxDomainHandle_t domain) {
    if (!domain) return {};
    const auto it = domains.find(domain);
    if (it != domains.end()) return it->second;
    problems.push_back("range in a domain created before the recorder subscribed");
    return "<unknown domain>";
  }

  void push(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes, const char* ascii) {
    nvtx_range r;
    r.domain = domain_name(domain);
    if (attributes) {
      r.category = attributes->category;
      switch (attributes->messageType) {
        case NVTX_MESSAGE_TYPE_ASCII:
          r.name = attributes->message.ascii ? attributes->message.ascii : "";
          break;
        case NVTX_MESSAGE_TYPE_REGISTERED: {
          r.registered = true;
          const auto it = strings.find(attributes->message.registered);
          if (it != strings.end()) {
            r.name = it->second;
          } else {
            r.name = "<unknown string>";
            problems.push_back("registered string handle that was never registered");
          }
          break;
        }
        default:
          r.name = "<message type " + std::to_string(attributes->messageType) + ">";
          problems.push_back("range message is neither ASCII nor a registered string");
      }
    } else {
      r.name = ascii ? ascii : "";
    }
    auto& stack = stacks[{std::this_thread::get_id(), domain}];
    r.depth = stack.size();
    r.path = stack.empty() ? r.name : ranges[stack.back()].path + "/" + r.name;
    stack.push_back(ranges.size());
    ranges.push_back(std::move(r));
  }

  void pop(nvtxDomainHandle_t domain) {
    auto& stack = stacks[{std::this_thread::get_id(), domain}];
    if (stack.empty()) {
      problems.push_back("pop without a push in domain '" + domain_name(domain) + "'");
      return;
    }
    ranges[stack.back()].closed = true;
    stack.pop_back();
  }

  void on_callback(CUpti_CallbackId id, const CUpti_NvtxData* data) {
    std::lock_guard<std::mutex> guard(lock);
    ++callbacks;
    const void* p = data->functionParams;
    switch (id) {
      case CUPTI_CBID_NVTX_nvtxDomainCreateA: {
        const auto* params = static_cast<const nvtxDomainCreateA_params*>(p);
        const auto* handle = static_cast<const nvtxDomainHandle_t*>(data->functionReturnValue);
        if (handle && params->name) domains[*handle] = params->name;
        break;
      }
      case CUPTI_CBID_NVTX_nvtxDomainRegisterStringA: {
        const auto* params = static_cast<const nvtxDomainRegisterStringA_params*>(p);
        const auto* handle = static_cast<const nvtxStringHandle_t*>(data->functionReturnValue);
        if (handle && params->string) strings[*handle] = params->string;
        break;
      }
      case CUPTI_CBID_NVTX_nvtxDomainRangePushEx: {
        const auto* params = static_cast<const nvtxDomainRangePushEx_params*>(p);
        push(params->domain, params->core.eventAttrib, nullptr);
        break;
      }
      case CUPTI_CBID_NVTX_nvtxDomainRangePop:
        pop(static_cast<const nvtxDomainRangePop_params*>(p)->domain);
        break;
      case CUPTI_CBID_NVTX_nvtxRangePushA:
        push(nullptr, nullptr, static_cast<const nvtxRangePushA_params*>(p)->message);
        break;
      case CUPTI_CBID_NVTX_nvtxRangePushEx:
        push(nullptr, static_cast<const nvtxRangePushEx_params*>(p)->eventAttrib, nullptr);
        break;
      case CUPTI_CBID_NVTX_nvtxRangePop:
        pop(nullptr);
        break;
      default:
        break;
    }
  }
};

namespace {

void CUPTIAPI on_nvtx(void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                      const void* data) {
  if (domain != CUPTI_CB_DOMAIN_NVTX || !userdata || !data) return;
  static_cast<nvtx_recorder::state*>(userdata)->on_callback(
      id, static_cast<const CUpti_NvtxData*>(data));
}

void check_cupti(CUptiResult result, const char* call) {
  if (result == CUPTI_SUCCESS) return;
  const char* text = nullptr;
  cuptiGetResultString(result, &text);
  throw std::runtime_error(std::string(call) + " failed: " + (text ? text : "unknown CUPTI error") +
                           (result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
                                ? " (another CUPTI subscriber: a profiler, or a second recorder)"
                                : ""));
}

}  // namespace

std::string point_nvtx_injection_at_cupti() {
  // The libcupti this process loaded (the one the subscriber lives in): NVTX's dlopen of the
  // same file then returns this very library instead of loading a second CUPTI.
  std::string path;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* found) {
        const std::string name = info->dlpi_name ? info->dlpi_name : "";
        if (name.find("libcupti.so") == std::string::npos) return 0;
        *static_cast<std::string*>(found) = name;
        return 1;
      },
      &path);
  if (path.empty()) throw std::runtime_error("libcupti is not loaded in this process");
  if (setenv("NVTX_INJECTION64_PATH", path.c_str(), 1) != 0)
    throw std::runtime_error("setenv(NVTX_INJECTION64_PATH) failed");
  return path;
}

nvtx_recorder::nvtx_recorder() : m_state(std::make_unique<state>()) {
  check_cupti(cuptiSubscribe(&m_state->subscriber, on_nvtx, m_state.get()), "cuptiSubscribe");
  const CUptiResult enabled = cuptiEnableDomain(1, m_state->subscriber, CUPTI_CB_DOMAIN_NVTX);
  if (enabled != CUPTI_SUCCESS) {
    cuptiUnsubscribe(m_state->subscriber);
    check_cupti(enabled, "cuptiEnableDomain(CUPTI_CB_DOMAIN_NVTX)");
  }
}

nvtx_recorder::~nvtx_recorder() {
  if (m_state && m_state->subscriber) cuptiUnsubscribe(m_state->subscriber);
}

nvtx_recorder::nvtx_recorder(nvtx_recorder&&) noexcept = default;

nvtx_recorder& nvtx_recorder::operator=(nvtx_recorder&& other) noexcept {
  if (this != &other) {
    if (m_state && m_state->subscriber) cuptiUnsubscribe(m_state->subscriber);
    m_state = std::move(other.m_state);
  }
  return *this;
}

std::vector<nvtx_range> nvtx_recorder::ranges() const {
  std::lock_guard<std::mutex> guard(m_state->lock);
  return m_state->ranges;
}

std::vector<std::string> nvtx_recorder::paths(std::string_view domain) const {
  std::vector<std::string> out;
  for (const auto& r : ranges())
    if (r.domain == domain) out.push_back(r.path);
  return out;
}

std::vector<std::string> nvtx_recorder::children(std::string_view domain,
                                                 std::string_view parent_path) const {
  std::vector<std::string> out;
  const std::string prefix = std::string(parent_path) + "/";
  for (const auto& r : ranges())
    if (r.domain == domain && r.path.size() == prefix.size() + r.name.size() &&
        r.path.compare(0, prefix.size(), prefix) == 0)
      out.push_back(r.name);
  return out;
}

std::vector<std::string> nvtx_recorder::problems() const {
  std::lock_guard<std::mutex> guard(m_state->lock);
  return m_state->problems;
}

std::size_t nvtx_recorder::callbacks() const {
  std::lock_guard<std::mutex> guard(m_state->lock);
  return m_state->callbacks;
}

void nvtx_recorder::clear() {
  std::lock_guard<std::mutex> guard(m_state->lock);
  m_state->ranges.clear();
  m_state->problems.clear();
  m_state->stacks.clear();
}

}  // namespace cudalab::testing
