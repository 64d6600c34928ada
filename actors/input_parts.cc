#include "actors/input_parts.h"

namespace structure::actors {
namespace {

struct Gather {
  std::vector<pipeline::CallResult> results;
  size_t left = 0;
  PartsDone done;
};

}  // namespace

void RunInputParts(caf::event_based_actor* self, LoopWaits& waits,
                   std::vector<std::shared_ptr<LoopRun>> runs, PartsDone done) {
  auto gather = std::make_shared<Gather>();
  gather->results.resize(runs.size());
  gather->left = runs.size();
  gather->done = std::move(done);
  if (runs.empty()) return gather->done({});
  for (size_t i = 0; i < runs.size(); ++i) {
    runs[i]->on_finish = [gather, i](pipeline::CallResult r) {
      gather->results[i] = std::move(r);
      if (--gather->left == 0) gather->done(std::move(gather->results));
    };
  }
  for (auto& run : runs) StartLoop(self, waits, std::move(run));
}

}  // namespace structure::actors
