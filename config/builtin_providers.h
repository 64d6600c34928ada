// The providers that need no config file: `--provider openai|anthropic|gemini|ollama|openrouter|
// openai-compatible` names one of these unless the configuration defines a provider of that name.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/engine_config.h"

namespace structure::config {

// The built-in provider for a kind name: kind = name, no base URL and no api_key_env (the wire
// format's official URL and the official SDK's key variable), the kind's default profile and its
// built-in model, all from the kind table (providers/kinds.h). nullopt for other names.
std::optional<ProviderConfig> BuiltinProvider(std::string_view name);

// The names BuiltinProvider knows, in the order `structure providers` lists them.
const std::vector<std::string>& BuiltinProviderNames();

// True for a built-in provider whose server has no address of its own (openai-compatible, the
// kind table's builtin_needs_base_url): it needs --base-url URL, and `structure providers` lists
// no base URL for it.
bool BuiltinNeedsBaseUrl(std::string_view name);

// The capability profile a provider of `kind` at `base_url` uses when its config names none: an
// OpenAI-compatible service known by its host gets its own (providers/openai_compat/
// known_servers.h: DeepSeek "json"), any other the kind table's (openai-strict for an unknown
// kind).
std::string DefaultProfileFor(std::string_view kind, std::string_view base_url = {});

}  // namespace structure::config
