// `--ref` for `structure validate`: loads the schemas a schema refers to from files, so its
// $refs to other documents resolve without any network. `--ref PATH` (a file, or a folder
// read recursively for *.json) registers each schema under its own `$id` (`id` in draft-04);
// `--ref URL=PATH` registers a file under URL, and each file of a folder under URL followed by
// its path relative to the folder (as a server at URL would serve it), which is how the
// official test suite's remotes/ folder is meant: --ref http://localhost:1234/=remotes.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/json.h"
#include "base/read_file.h"
#include "structure/status.h"

namespace structure::pipeline {

// Adds the documents named by the --ref values to resources (absolute URI -> schema).
// kInvalidArgument that names the --ref value and the file for: a path that does not exist or
// cannot be read, a folder with no .json file, a file that is not JSON (with line, column and
// byte of the fault; invalid UTF-8 included), a schema given by PATH with no absolute `$id`,
// and two different files under one URI, and a file larger than max_bytes (limit_name says
// which limit, and how to raise it).
Status LoadSchemaRefs(const std::vector<std::string>& refs, std::map<std::string, Json>* resources,
                      size_t max_bytes = kMaxSchemaBytes,
                      std::string_view limit_name = "the schema limit");

}  // namespace structure::pipeline
