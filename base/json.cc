#include "base/json.h"

#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <functional>

namespace structure {

namespace {

// Objects at or past this size keep a key index; smaller ones are scanned (cheaper than a hash).
constexpr size_t kIndexFrom = 32;
// Members an object gets room for when its first one is added.
constexpr size_t kFirstCapacity = 4;
constexpr size_t kNpos = static_cast<size_t>(-1);

uint32_t KeyHash(std::string_view key) {
  uint64_t h = std::hash<std::string_view>{}(key);
  return static_cast<uint32_t>(h ^ (h >> 32)) | 1;  // never 0, so a slot is never 0
}

// The slot for key in its probe sequence: the one holding it (*found set) or the first free one.
// key_at(pos) gives the key of the member at pos.
template <typename KeyAt>
size_t Probe(const std::vector<uint64_t>& slots, uint32_t hash, std::string_view key, KeyAt key_at,
             bool* found) {
  size_t mask = slots.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    uint64_t slot = slots[i];
    if (slot == 0) {
      *found = false;
      return i;
    }
    if (static_cast<uint32_t>(slot >> 32) == hash &&
        key_at(static_cast<uint32_t>(slot) - 1) == key) {
      *found = true;
      return i;
    }
  }
}

uint64_t SlotValue(uint32_t hash, size_t pos) { return (uint64_t{hash} << 32) | (pos + 1); }

// A table of at least twice `members` slots (a power of two, at least 64).
size_t Capacity(size_t members) {
  size_t capacity = 64;
  while (capacity < members * 2) capacity *= 2;
  return capacity;
}

}  // namespace

Json::Json(uint64_t v) {
  if (v <= static_cast<uint64_t>(INT64_MAX)) {
    type_ = Type::kInt;
    i_ = static_cast<int64_t>(v);
  } else {
    type_ = Type::kDouble;
    d_ = static_cast<double>(v);
    s_ = std::to_string(v);
  }
}

Json Json::MakeBigInteger(std::string_view digits) {
  Json j;
  j.type_ = Type::kDouble;
  j.s_ = std::string(digits);
  j.d_ = std::strtod(j.s_.c_str(), nullptr);
  return j;
}

Json::Json(Array a) : type_(Type::kArray), a_(std::make_unique<Array>(std::move(a))) {}
Json::Json(Object o) : type_(Type::kObject), o_(std::make_unique<ObjectData>()) {
  o_->members = std::move(o);
  if (o_->members.size() >= kIndexFrom) Reindex();
}

Json::Json(const Json& other)
    : type_(other.type_), b_(other.b_), i_(other.i_), d_(other.d_), s_(other.s_) {
  if (other.a_) a_ = std::make_unique<Array>(*other.a_);
  if (other.o_) {
    o_ = std::make_unique<ObjectData>(*other.o_);
    if (o_->members.size() >= kIndexFrom && o_->index.count != o_->members.size()) Reindex();
  }
}

Json& Json::operator=(const Json& other) {
  if (this != &other) {
    Json copy(other);
    *this = std::move(copy);
  }
  return *this;
}

bool Json::is_integral() const {
  if (type_ == Type::kInt) return true;
  return type_ == Type::kDouble && std::isfinite(d_) && std::floor(d_) == d_;
}

bool Json::as_bool() const {
  assert(type_ == Type::kBool);
  return b_;
}
int64_t Json::as_int() const {
  assert(is_number());
  if (type_ == Type::kInt) return i_;
  if (!(d_ >= -9.2e18 && d_ <= 9.2e18)) return d_ < 0 ? INT64_MIN : INT64_MAX;
  return static_cast<int64_t>(d_);
}
double Json::as_double() const {
  assert(is_number());
  return type_ == Type::kInt ? static_cast<double>(i_) : d_;
}
const std::string& Json::as_string() const {
  assert(type_ == Type::kString);
  return s_;
}
std::string& Json::as_string() {
  assert(type_ == Type::kString);
  return s_;
}
const Json::Array& Json::as_array() const {
  assert(type_ == Type::kArray);
  return *a_;
}
Json::Array& Json::as_array() {
  assert(type_ == Type::kArray);
  return *a_;
}
const Json::Object& Json::as_object() const {
  assert(type_ == Type::kObject);
  return o_->members;
}
Json::Object& Json::as_object() {
  assert(type_ == Type::kObject);
  o_->index.count = kNpos;  // the caller may change the members: index again before use
  return o_->members;
}

void Json::Reindex() {
  const Object& members = o_->members;
  KeyIndex& index = o_->index;
  index.count = 0;
  if (members.size() < kIndexFrom) {
    index.slots = {};
    return;
  }
  index.slots.assign(Capacity(members.size()), 0);
  auto key_at = [&](size_t pos) -> std::string_view { return members[pos].first; };
  for (size_t pos = 0; pos < members.size(); ++pos) {
    // Keys are unique; should a caller have built an object with duplicates, the first wins,
    // as it does for a scan.
    uint32_t hash = KeyHash(members[pos].first);
    bool found;
    size_t i = Probe(index.slots, hash, members[pos].first, key_at, &found);
    if (!found) index.slots[i] = SlotValue(hash, pos);
  }
  index.count = members.size();
}

size_t Json::IndexedFind(std::string_view key) const {
  const Object& members = o_->members;
  auto key_at = [&](size_t pos) -> std::string_view { return members[pos].first; };
  bool found;
  size_t i = Probe(o_->index.slots, KeyHash(key), key, key_at, &found);
  return found ? static_cast<uint32_t>(o_->index.slots[i]) - 1 : kNpos;
}

size_t Json::Position(std::string_view key) const {
  const Object& members = o_->members;
  if (!o_->index.slots.empty() && o_->index.count == members.size()) return IndexedFind(key);
  for (size_t pos = 0; pos < members.size(); ++pos) {
    if (members[pos].first == key) return pos;
  }
  return kNpos;
}

const Json* Json::find(std::string_view key) const {
  if (type_ != Type::kObject) return nullptr;
  size_t pos = Position(key);
  return pos == kNpos ? nullptr : &o_->members[pos].second;
}

Json* Json::find(std::string_view key) {
  if (type_ == Type::kObject && o_->members.size() >= kIndexFrom &&
      o_->index.count != o_->members.size()) {
    Reindex();  // after as_object(): index again once rather than scan every time
  }
  return const_cast<Json*>(static_cast<const Json*>(this)->find(key));
}

Json& Json::Slot(std::string_view key, std::string* owned_key) {
  if (type_ == Type::kNull) *this = MakeObject();
  assert(type_ == Type::kObject);
  Object& members = o_->members;
  KeyIndex& index = o_->index;
  auto append = [&]() -> Json& {
    // Most objects have a few members: room for them at once, rather than growing 1, 2, 4, 8
    // (each step moving every member).
    if (members.capacity() == 0) members.reserve(kFirstCapacity);
    members.emplace_back(owned_key ? std::move(*owned_key) : std::string(key), Json());
    return members.back().second;
  };
  if (members.size() >= kIndexFrom && index.count != members.size()) Reindex();
  if (index.slots.empty()) {
    for (auto& [k, v] : members) {
      if (k == key) return v;
    }
    Json& added = append();
    if (members.size() == kIndexFrom) {
      Reindex();
      return members.back().second;
    }
    return added;
  }
  auto key_at = [&](size_t pos) -> std::string_view { return members[pos].first; };
  uint32_t hash = KeyHash(key);
  bool found;
  size_t i = Probe(index.slots, hash, key, key_at, &found);
  if (found) return members[static_cast<uint32_t>(index.slots[i]) - 1].second;
  append();
  if ((members.size()) * 2 <= index.slots.size()) {
    index.slots[i] = SlotValue(hash, members.size() - 1);
  } else {
    // Half full: a table twice the size, filled from the old slots (their hashes are kept, so
    // no key is read or hashed again).
    std::vector<uint64_t> old = std::move(index.slots);
    index.slots.assign(old.size() * 2, 0);
    size_t mask = index.slots.size() - 1;
    old.push_back(SlotValue(hash, members.size() - 1));
    for (uint64_t slot : old) {
      if (slot == 0) continue;
      size_t j = static_cast<uint32_t>(slot >> 32) & mask;
      while (index.slots[j] != 0) j = (j + 1) & mask;
      index.slots[j] = slot;
    }
  }
  index.count = members.size();
  return members.back().second;
}

Json& Json::set(std::string_view key, Json value) {
  Json& member = Slot(key, nullptr);
  member = std::move(value);
  return member;
}

Json& Json::operator[](std::string_view key) { return Slot(key, nullptr); }

bool Json::erase(std::string_view key) {
  if (type_ != Type::kObject) return false;
  size_t pos = Position(key);
  if (pos == kNpos) return false;
  o_->members.erase(o_->members.begin() + static_cast<std::ptrdiff_t>(pos));
  Reindex();  // positions after pos moved (erase is linear anyway)
  return true;
}

void Json::push_back(Json value) {
  if (type_ == Type::kNull) *this = MakeArray();
  assert(type_ == Type::kArray);
  a_->push_back(std::move(value));
}

size_t Json::size() const {
  if (type_ == Type::kArray) return a_->size();
  if (type_ == Type::kObject) return o_->members.size();
  return 0;
}

bool Json::operator==(const Json& other) const {
  if (is_number() && other.is_number()) {
    if (type_ == Type::kInt && other.type_ == Type::kInt) return i_ == other.i_;
    bool big = !big_integer().empty(), other_big = !other.big_integer().empty();
    if (big && other_big) return s_ == other.s_;
    if (big ? other.type_ == Type::kInt : (other_big && type_ == Type::kInt)) return false;
    return as_double() == other.as_double();
  }
  if (type_ != other.type_) return false;
  switch (type_) {
    case Type::kNull:
      return true;
    case Type::kBool:
      return b_ == other.b_;
    case Type::kString:
      return s_ == other.s_;
    case Type::kArray:
      return *a_ == *other.a_;
    case Type::kObject: {
      if (o_->members.size() != other.o_->members.size()) return false;
      for (const auto& [k, v] : o_->members) {
        const Json* ov = other.find(k);
        if (ov == nullptr || !(v == *ov)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

}  // namespace structure
