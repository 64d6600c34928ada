// A generated long invoice with a known truth (issue 45): hundreds of line items, each a long
// line of notes, the header facts only at the top, one line item stated twice far apart (a
// real repeat), the currency stated differently near the end (a conflict), the total at the
// bottom; and the simulator scenario whose "faithful" answers read exactly those facts from
// whatever text they are sent (sim/faithful.h).
#pragma once

#include <cstdio>
#include <string>

#include "structure/json.h"

namespace structure::testing {

struct LongInvoice {
  std::string text;
  Json truth;  // the one object the whole document states
};

// About `items` * 1250 bytes; the item at `items / 10` is stated again at `items * 9 / 10`.
inline LongInvoice MakeLongInvoice(int items = 240) {
  static const char* kNotes[] = {
      "The goods were packed in the northern warehouse and checked twice before shipping. ",
      "Delivery took place on the agreed weekday, and the driver waited for the signature. ",
      "Our customer service confirmed the order by phone; no changes were requested. ",
      "Packaging is recyclable and the pallet may be returned at the next delivery. ",
      "Quality control found no defects in the sample taken from this batch of goods. ",
  };
  LongInvoice inv;
  std::string& t = inv.text;
  t = "INVOICE\nInvoice number: INV-2026-0451\nCustomer: Nordlicht Handel GmbH\n"
      "Currency: EUR\n\nThe items below were delivered under framework contract 7.\n\n";
  Json lines = Json::MakeArray();
  long long cents_total = 0;
  int repeat_of = items / 10, repeat_at = items * 9 / 10;
  std::string repeated;
  Json repeated_record;
  for (int i = 0; i < items; ++i) {
    std::string line;
    Json record;
    if (i == repeat_at) {
      line = repeated;
      record = repeated_record;
    } else {
      int qty = 1 + (i * 7) % 9;
      long long cents = 100 * (5 + (i * 37) % 400) + (i * 13) % 100;
      char amount[32];
      std::snprintf(amount, sizeof(amount), "%lld.%02lld", cents / 100, cents % 100);
      char sku[16];
      std::snprintf(sku, sizeof(sku), "SKU-%05d", 1000 + i);
      line = std::string("Item ") + sku + " | qty " + std::to_string(qty) + " | amount " + amount +
             " | notes: ";
      for (int k = 0; line.size() < 1200; ++k) line += kNotes[(i + k) % 5];
      line += "\n";
      record = Json::MakeObject();
      record.set("sku", std::string(sku));
      record.set("qty", static_cast<int64_t>(qty));
      record.set("amount", static_cast<double>(cents) / 100.0);
      if (i == repeat_of) {
        repeated = line;
        repeated_record = record;
      }
    }
    t += line;
    lines.push_back(record);
    cents_total += static_cast<long long>(record.find("amount")->as_double() * 100 + 0.5);
  }
  char total[32];
  std::snprintf(total, sizeof(total), "%lld.%02lld", cents_total / 100, cents_total % 100);
  t += "\nRemark: the price list is also published with Currency: USD for export customers.\n";
  t += "Total due: " + std::string(total) + "\n";
  inv.truth = Json::MakeObject();
  inv.truth.set("invoiceNumber", "INV-2026-0451");
  inv.truth.set("customer", "Nordlicht Handel GmbH");
  inv.truth.set("currency", "EUR");
  inv.truth.set("lineItems", std::move(lines));
  inv.truth.set("total", static_cast<double>(cents_total) / 100.0);
  return inv;
}

// The invoice's schema: every fact required, at least one line item.
inline const char* LongInvoiceSchema() {
  return R"({"type": "object", "additionalProperties": false,
  "required": ["invoiceNumber", "customer", "currency", "lineItems", "total"],
  "properties": {
    "invoiceNumber": {"type": "string"}, "customer": {"type": "string"},
    "currency": {"type": "string"}, "total": {"type": "number"},
    "lineItems": {"type": "array", "minItems": 1, "items": {"type": "object",
      "additionalProperties": false, "required": ["sku", "qty", "amount"],
      "properties": {"sku": {"type": "string"}, "qty": {"type": "integer"},
                     "amount": {"type": "number"}}}}}})";
}

// The scenario: a model of `window` tokens that refuses longer requests with the provider's
// own error, and answers faithfully.
inline std::string LongInvoiceScenario(int window) {
  return R"J({"context_windows": {"*": )J" + std::to_string(window) + R"J(},
  "rules": [{"name": "invoice", "replies": [{"extract": {
    "fields": {"invoiceNumber": "Invoice number: (\\S+)", "customer": "Customer: ([^\\n]+)",
               "currency": "Currency: ([A-Z]{3})", "total": "Total due: (\\d+\\.\\d\\d)"},
    "records": {"lineItems":
      "Item (?P<sku>SKU-\\d+) \\| qty (?P<qty>\\d+) \\| amount (?P<amount>\\d+\\.\\d\\d)"},
    "numbers": ["qty", "amount", "total"]}}]}]})J";
}

}  // namespace structure::testing
