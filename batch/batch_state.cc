#include "batch/batch_state.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "base/json.h"
#include "base/output_file.h"
#include "base/read_file.h"

namespace structure::batch {

namespace {

std::string Journal(const std::string& dir) { return dir + "/journal.jsonl"; }
std::string ResultsPath(const std::string& dir, int64_t seq) {
  return dir + "/" + std::to_string(seq) + ".results";
}

int64_t IntOf(const Json& o, std::string_view key) {
  const Json* v = o.find(key);
  return v && v->is_int() ? v->as_int() : 0;
}

std::string StringOf(const Json& o, std::string_view key) {
  const Json* v = o.find(key);
  return v && v->is_string() ? v->as_string() : std::string();
}

}  // namespace

bool BatchState::Exists(const std::string& dir) {
  struct stat st {};
  return ::stat(Journal(dir).c_str(), &st) == 0 && st.st_size > 0;
}

Result<BatchState> BatchState::Open(const std::string& dir) {
  BatchState s;
  s.dir_ = dir;
  std::error_code ec;
  if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec)) {
    return InvalidArgument(
        dir + " exists and is not a directory (the provider batch job keeps its state there)");
  }
  std::filesystem::create_directories(dir, ec);
  if (ec) return InvalidArgument("cannot create " + dir + ": " + ec.message());
  if (::access(Journal(dir).c_str(), F_OK) != 0) return s;
  auto text = ReadFile(Journal(dir), SIZE_MAX);  // the job's own state: any size
  if (!text.ok()) return text.status();
  size_t pos = 0;
  uint64_t line_no = 0;
  while (pos < text->size()) {
    size_t nl = text->find('\n', pos);
    if (nl == std::string::npos) break;  // a torn last line: its write never completed
    ++line_no;
    STRUCTURE_RETURN_IF_ERROR(s.Apply(text->substr(pos, nl - pos), line_no));
    pos = nl + 1;
  }
  if (pos < text->size()) {
    // Cut the torn tail off, so the next line starts on a line of its own.
    if (::truncate(Journal(dir).c_str(), static_cast<off_t>(pos)) != 0) {
      return OsError("cannot truncate", Journal(dir));
    }
  }
  return s;
}

Status BatchState::Apply(const std::string& text, uint64_t line_no) {
  auto bad = [&](const std::string& why) {
    return InvalidArgument(Journal(dir_) + ":" + std::to_string(line_no) + ": " + why +
                           " (the job's state is damaged; remove " + dir_ + " to start over)");
  };
  auto line = ParseJson(text);
  if (!line.ok() || !line->is_object()) return bad("not a journal line");
  const Json& o = *line;
  if (const Json* job = o.find("job"); job && job->is_string()) {
    job_id_ = job->as_string();
    fingerprint_ = StringOf(o, "fingerprint");
    return Status::Ok();
  }
  if (o.find("planned")) {
    SubmitRecord r;
    r.seq = IntOf(o, "planned");
    r.round = static_cast<int>(IntOf(o, "round"));
    r.provider = StringOf(o, "provider");
    r.model = StringOf(o, "model");
    r.key = StringOf(o, "key");
    r.at_ms = IntOf(o, "at");
    const Json* ids = o.find("ids");
    if (r.seq <= 0 || r.round <= 0 || !ids || !ids->is_array())
      return bad("a submit without its requests");
    for (const Json& id : ids->as_array()) {
      if (!id.is_string()) return bad("a request id that is not a string");
      r.custom_ids.push_back(id.as_string());
    }
    submits_[r.seq] = std::move(r);
    return Status::Ok();
  }
  for (const char* event : {"uploaded", "created", "rejected", "read"}) {
    if (!o.find(event)) continue;
    auto it = submits_.find(IntOf(o, event));
    if (it == submits_.end()) return bad(std::string("'") + event + "' for a submit never planned");
    SubmitRecord& r = it->second;
    std::string e = event;
    if (e == "uploaded") r.file_id = StringOf(o, "file");
    if (e == "created") r.batch_id = StringOf(o, "batch");
    if (e == "rejected") {
      r.rejected = true;
      r.reject_message = StringOf(o, "message");
    }
    if (e == "read") r.read = true;
    return Status::Ok();
  }
  return bad("an unknown event");
}

Status BatchState::Noted(Status st) {
  if (!st.ok() && write_error_.ok()) write_error_ = st;
  return st;
}

Status BatchState::Append(const std::string& line) {
  std::string path = Journal(dir_);
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return Noted(OsError("cannot open", path));
  std::string text = line + "\n";
  Status st = WriteAll(fd, text, path);
  if (st.ok() && ::fdatasync(fd) != 0) st = OsError("cannot sync", path);
  ::close(fd);
  return Noted(st);
}

Status BatchState::Begin(const std::string& job_id, const std::string& fingerprint) {
  Json o = Json::MakeObject();
  o.set("job", job_id);
  o.set("fingerprint", fingerprint);
  STRUCTURE_RETURN_IF_ERROR(Append(ToJson(o)));
  STRUCTURE_RETURN_IF_ERROR(SyncDir(dir_));
  job_id_ = job_id;
  fingerprint_ = fingerprint;
  return Status::Ok();
}

Status BatchState::Planned(const SubmitRecord& r) {
  Json ids = Json::MakeArray();
  for (const auto& id : r.custom_ids) ids.push_back(id);
  Json o = Json::MakeObject();
  o.set("planned", r.seq);
  o.set("round", r.round);
  o.set("provider", r.provider);
  o.set("model", r.model);
  o.set("key", r.key);
  o.set("at", r.at_ms);
  o.set("ids", std::move(ids));
  STRUCTURE_RETURN_IF_ERROR(Append(ToJson(o)));
  submits_[r.seq] = r;
  return Status::Ok();
}

Status BatchState::Uploaded(int64_t seq, const std::string& file_id) {
  STRUCTURE_RETURN_IF_ERROR(
      Append(ToJson(Json(Json::Object{{"uploaded", Json(seq)}, {"file", Json(file_id)}}))));
  submits_[seq].file_id = file_id;
  return Status::Ok();
}

Status BatchState::Created(int64_t seq, const std::string& batch_id) {
  STRUCTURE_RETURN_IF_ERROR(
      Append(ToJson(Json(Json::Object{{"created", Json(seq)}, {"batch", Json(batch_id)}}))));
  submits_[seq].batch_id = batch_id;
  return Status::Ok();
}

Status BatchState::Rejected(int64_t seq, const std::string& message) {
  STRUCTURE_RETURN_IF_ERROR(
      Append(ToJson(Json(Json::Object{{"rejected", Json(seq)}, {"message", Json(message)}}))));
  submits_[seq].rejected = true;
  submits_[seq].reject_message = message;
  return Status::Ok();
}

Status BatchState::Read(int64_t seq, const std::string& results) {
  STRUCTURE_RETURN_IF_ERROR(Noted(WriteOutputFile(ResultsPath(dir_, seq), results)));
  STRUCTURE_RETURN_IF_ERROR(Append(ToJson(Json(Json::Object{{"read", Json(seq)}}))));
  submits_[seq].read = true;
  return Status::Ok();
}

Result<std::string> BatchState::Results(int64_t seq) const {
  return ReadFile(ResultsPath(dir_, seq), SIZE_MAX);
}

Status BatchState::Remove() {
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
  if (ec) return Unavailable("cannot remove " + dir_ + ": " + ec.message());
  return Status::Ok();
}

}  // namespace structure::batch
