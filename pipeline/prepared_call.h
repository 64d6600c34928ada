// A request after its schema stage, for callers that send the content loop's calls themselves
// (the provider batch runner): the loop to drive with Start / OnReply, and where its calls go.
#pragma once

#include <string>

#include "pipeline/loop/content_loop.h"
#include "providers/call.h"
#include "providers/endpoint.h"

namespace structure::pipeline {

struct PreparedCall {
  LoopSpec spec;
  std::string provider;           // the configured provider's name ([providers.<name>])
  providers::Endpoint endpoint;   // its kind, base URL and key (never log it)
  std::string schema_origin;      // inline | registry:… | inferred
  providers::Usage schema_usage;  // schema-builder calls (schemaText), already spent

  // The loop's final result as the engine reports it: the schema origin and provider set and
  // the schema stage's usage added, exactly as Engine::Submit does.
  CallResult Complete(CallResult result) const {
    if (result.schema_origin.empty()) result.schema_origin = schema_origin;
    if (result.provider.empty()) result.provider = provider;
    result.usage += schema_usage;
    return result;
  }
};

}  // namespace structure::pipeline
