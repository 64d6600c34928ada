#include "pipeline/loop/file_evidence.h"

#include "pipeline/evidence/locate.h"

namespace structure::pipeline {

EvidenceText MakeEvidenceText(std::string_view prompt, const PreparedFiles& files) {
  EvidenceText out;
  out.text = std::string(prompt);
  out.segments.push_back({"", -1, 0, 0});
  size_t cp = evidence::CodePointOffset(out.text, out.text.size());
  for (const FilePage& p : files.pages) {
    out.text += "\n\n";
    cp += 2;
    out.segments.push_back({p.file, p.page, out.text.size(), cp});
    out.text += p.text;
    cp += evidence::CodePointOffset(p.text, p.text.size());
  }
  return out;
}

void PlaceOnPages(Json& evidence, const EvidenceText& text) {
  if (!evidence.is_object()) return;
  for (auto& member : evidence.as_object()) {
    Json& entry = member.second;  // a structured binding cannot be captured (clang 14)
    const Json* start = entry.find("byteStart");
    if (start == nullptr || !start->is_integral()) continue;
    auto at = static_cast<size_t>(start->as_int());
    const TextSegment* seg = nullptr;
    for (const TextSegment& s : text.segments) {
      if (s.byte_begin <= at) seg = &s;
    }
    if (seg == nullptr || seg->page < 0) continue;
    auto shift = [&](const char* key, size_t by) {
      if (const Json* v = entry.find(key); v != nullptr && v->is_integral())
        entry.set(key, Json(static_cast<int64_t>(static_cast<size_t>(v->as_int()) - by)));
    };
    shift("byteStart", seg->byte_begin);
    shift("byteEnd", seg->byte_begin);
    shift("cpStart", seg->cp_begin);
    shift("cpEnd", seg->cp_begin);
    entry.set("file", Json(seg->file));
    entry.set("page", Json(static_cast<int64_t>(seg->page)));
  }
}

Json UncheckedEntry(const std::string& quote, const PreparedFiles& files) {
  Json e = Json::MakeObject();
  e.set("quote", Json(quote));
  e.set("match", Json("unchecked"));
  e.set("kind", Json(files.images.empty() ? "scan" : "image"));
  if (files.images.size() + files.scans.size() == 1)
    e.set("file", Json(files.images.empty() ? files.scans[0] : files.images[0]));
  return e;
}

}  // namespace structure::pipeline
