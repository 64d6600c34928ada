// libFuzzer target: a request body (POST /v1/structure, the fields of a batch line or an MCP
// call) through pipeline::ParseRequest, with small limits so size checks are reached.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "base/json.h"
#include "pipeline/request.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  structure::ParseOptions po;
  po.source = "body";
  po.max_depth = 64;
  auto body = structure::ParseJson(text, po);
  if (!body.ok()) return 0;
  structure::pipeline::RequestLimits limits;
  limits.max_prompt_bytes = 4096;
  limits.max_schema_bytes = 4096;
  limits.max_schema_depth = 16;
  (void)structure::pipeline::ParseRequest(*body, limits);
  (void)structure::pipeline::ParseRequest(*body);
  return 0;
}
