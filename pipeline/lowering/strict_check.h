// The acceptance checker: would a provider accept this schema as it is? Written from the
// profile's documented rules (the providers' own documentation), independent of Lower, so that
// tests can use it to confirm every strict output of Lower.
#pragma once

#include <string>
#include <vector>

#include "base/json.h"
#include "pipeline/lowering/profile.h"

namespace structure::pipeline {

// Returns every reason the provider described by `profile` would reject `schema` (or, for
// providers that ignore what they do not support, would silently not enforce it), each as
// "<schema pointer>: <reason>", in document order. Empty means accepted. A profile that does not
// enforce schemas ("json") accepts everything.
std::vector<std::string> CheckProviderSchema(const Json& schema, const Profile& profile);

}  // namespace structure::pipeline
