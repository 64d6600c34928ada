#include "base/json.h"

#include <cassert>
#include <cmath>

namespace structure {

Json::Json(uint64_t v) {
  if (v <= static_cast<uint64_t>(INT64_MAX)) {
    type_ = Type::kInt;
    i_ = static_cast<int64_t>(v);
  } else {
    type_ = Type::kDouble;
    d_ = static_cast<double>(v);
  }
}

Json::Json(Array a) : type_(Type::kArray), a_(std::make_unique<Array>(std::move(a))) {}
Json::Json(Object o) : type_(Type::kObject), o_(std::make_unique<Object>(std::move(o))) {}

Json::Json(const Json& other)
    : type_(other.type_), b_(other.b_), i_(other.i_), d_(other.d_), s_(other.s_) {
  if (other.a_) a_ = std::make_unique<Array>(*other.a_);
  if (other.o_) o_ = std::make_unique<Object>(*other.o_);
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
  return *o_;
}
Json::Object& Json::as_object() {
  assert(type_ == Type::kObject);
  return *o_;
}

const Json* Json::find(std::string_view key) const {
  if (type_ != Type::kObject) return nullptr;
  for (const auto& [k, v] : *o_) {
    if (k == key) return &v;
  }
  return nullptr;
}

Json* Json::find(std::string_view key) {
  return const_cast<Json*>(static_cast<const Json*>(this)->find(key));
}

Json& Json::set(std::string_view key, Json value) {
  if (type_ == Type::kNull) *this = MakeObject();
  assert(type_ == Type::kObject);
  if (Json* existing = find(key)) {
    *existing = std::move(value);
    return *existing;
  }
  o_->emplace_back(std::string(key), std::move(value));
  return o_->back().second;
}

Json& Json::operator[](std::string_view key) {
  if (Json* existing = find(key)) return *existing;
  return set(key, Json());
}

bool Json::erase(std::string_view key) {
  if (type_ != Type::kObject) return false;
  for (auto it = o_->begin(); it != o_->end(); ++it) {
    if (it->first == key) {
      o_->erase(it);
      return true;
    }
  }
  return false;
}

void Json::push_back(Json value) {
  if (type_ == Type::kNull) *this = MakeArray();
  assert(type_ == Type::kArray);
  a_->push_back(std::move(value));
}

size_t Json::size() const {
  if (type_ == Type::kArray) return a_->size();
  if (type_ == Type::kObject) return o_->size();
  return 0;
}

bool Json::operator==(const Json& other) const {
  if (is_number() && other.is_number()) {
    if (type_ == Type::kInt && other.type_ == Type::kInt) return i_ == other.i_;
    return as_double() == other.as_double();
  }
  if (type_ != other.type_) return false;
  switch (type_) {
    case Type::kNull: return true;
    case Type::kBool: return b_ == other.b_;
    case Type::kString: return s_ == other.s_;
    case Type::kArray: return *a_ == *other.a_;
    case Type::kObject: {
      if (o_->size() != other.o_->size()) return false;
      for (const auto& [k, v] : *o_) {
        const Json* ov = other.find(k);
        if (ov == nullptr || !(v == *ov)) return false;
      }
      return true;
    }
    default: return false;
  }
}

}  // namespace structure
