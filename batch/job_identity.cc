#include "batch/job_identity.h"

#include <cstdlib>
#include <memory>

#include "base/json.h"
#include "base/output_file.h"
#include "base/read_file.h"

namespace structure::batch {
namespace {

std::string ShardText(const Shard& s) {
  return std::to_string(s.index) + "/" + std::to_string(s.count);
}

std::string InputText(const std::string& input) {
  return input == "-" ? std::string("stdin") : input;
}

constexpr const char* kHowToGoOn =
    ": give the same one to continue, or a new -o FILE (or --overwrite) ";

}  // namespace

JobIdentity IdentityOf(const std::string& in_path, const Shard& shard) {
  JobIdentity id;
  id.shard = shard;
  id.input = in_path;
  if (in_path == "-") return id;
  std::unique_ptr<char, void (*)(void*)> real(::realpath(in_path.c_str(), nullptr), &std::free);
  if (real) id.input = real.get();
  return id;
}

std::string JobFilePath(const std::string& out) { return out + ".job"; }

Status RecordJob(const std::string& out, const JobIdentity& id) {
  Json doc = Json::MakeObject();
  doc.set("input", id.input);
  doc.set("shard", ShardText(id.shard));
  return WriteOutputFile(JobFilePath(out), ToJson(doc) + "\n");
}

Status CheckJob(const std::string& out, const std::string& shown, const JobIdentity& now,
                std::string* note) {
  std::string path = JobFilePath(out);
  auto text = ReadFile(path, 1 << 20, "the limit of a job file");
  if (!text.ok() && text.status().code() == Code::kNotFound) {
    *note = "no " + path + " records which input and shard " + shown +
            " was written for (written by an older version?): continuing as this run says";
    return RecordJob(out, now);
  }
  if (!text.ok()) return text.status();
  auto doc = ParseJson(*text);
  const Json* input = doc.ok() ? doc->find("input") : nullptr;
  const Json* shard = doc.ok() ? doc->find("shard") : nullptr;
  if (!input || !input->is_string() || !shard || !shard->is_string()) {
    return Status(Code::kFailedPrecondition,
                  path + " is damaged: it should say which input and shard " + shown +
                      " was written for; remove it to continue as this run says");
  }
  if (shard->as_string() != ShardText(now.shard)) {
    return Status(Code::kFailedPrecondition,
                  "--shard: " + shown + " holds the records of shard " + shard->as_string() +
                      " of its input, this run asks for " + ShardText(now.shard) +
                      (now.shard.count == 1 ? " (no --shard)" : "") + kHowToGoOn + "to start over");
  }
  if (input->as_string() != now.input) {
    return Status(Code::kFailedPrecondition,
                  "the input: " + shown + " was written from " + InputText(input->as_string()) +
                      ", this run reads " + InputText(now.input) + kHowToGoOn + "to start over");
  }
  return Status::Ok();
}

}  // namespace structure::batch
