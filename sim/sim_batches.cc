#include "sim/sim_batches.h"

#include "sim/simulator.h"

namespace structure::sim {

SimBatches::SimBatches(BatchOptions options, uint64_t seed, Simulator& sim)
    : sim_(sim),
      store_(
          std::move(options), seed, sim.stats(),
          [&sim](Provider provider, const std::string& path, const std::string& body) {
            http::HttpRequest item;
            item.method = "POST";
            item.path = path;
            item.target = path;
            item.body = body;
            return sim.AnswerBatchItem(provider, item);
          },
          [&sim](Provider provider, const std::string& message) {
            return sim.dialect(provider).Error(400, message);
          }) {}

std::optional<http::HttpResponse> SimBatches::Handle(const http::HttpRequest& r) {
  const std::string& p = r.path;
  bool openai = p == "/v1/files" || p.rfind("/v1/files/", 0) == 0 || p == "/v1/batches" ||
                p.rfind("/v1/batches/", 0) == 0;
  bool anthropic = p == "/v1/messages/batches" || p.rfind("/v1/messages/batches/", 0) == 0;
  bool gemini = p == "/v1beta/batches" || p.rfind("/v1beta/batches/", 0) == 0 ||
                (p.rfind("/v1beta/models/", 0) == 0 && p.size() > 21 &&
                 p.compare(p.size() - 21, 21, ":batchGenerateContent") == 0);
  if (!openai && !anthropic && !gemini) return std::nullopt;
  std::lock_guard<std::mutex> lock(mu_);
  if (openai) return ServeOpenAiBatches(store_, sim_.dialect(Provider::kOpenAi), sim_.keys(), r);
  if (anthropic) {
    return ServeAnthropicBatches(store_, sim_.dialect(Provider::kAnthropic), sim_.keys(), r);
  }
  return ServeGeminiBatches(store_, sim_.dialect(Provider::kGemini), sim_.keys(), r);
}

}  // namespace structure::sim
