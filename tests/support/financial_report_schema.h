// A generated financial-report schema of 369 leaves, the size of the public benchmark on which
// every frontier model gave 0 % valid output: company facts, income statement, balance sheet and
// cash flow for two years, segments (a list of objects), ratios, quarters, guidance, ESG figures
// and twenty notes. Most leaves are optional numbers; identifiers, the currency and the main
// totals are required; 25 leaves are enums. Deterministic: the same schema every call.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <utility>

#include "structure/json.h"

namespace structure::testing {

inline constexpr size_t kFinancialReportLeaves = 369;

namespace financial_report {

// One member of an object: its name, its schema and whether it is required.
struct Member {
  std::string name;
  Json schema;
  bool required = false;
};

inline std::string Words(const std::string& name) {
  std::string out = name;
  for (char& c : out)
    if (c == '_') c = ' ';
  return out;
}

inline Json Typed(const char* type, const std::string& description) {
  return Json(Json::Object{{"type", Json(type)}, {"description", Json(description)}});
}

inline Member Num(const std::string& name, bool required = false) {
  return {name, Typed("number", Words(name) + ", in the report's unit"), required};
}
inline Member Int(const std::string& name, bool required = false) {
  return {name, Typed("integer", Words(name)), required};
}
inline Member Text(const std::string& name, bool required = false) {
  return {name, Typed("string", Words(name)), required};
}
inline Member Flag(const std::string& name) { return {name, Typed("boolean", Words(name))}; }
inline Member Date(const std::string& name, bool required = false) {
  Json s = Typed("string", Words(name));
  s.set("format", Json("date"));
  return {name, std::move(s), required};
}
inline Member Choice(const std::string& name, std::initializer_list<const char*> values,
                     bool required = false) {
  Json list = Json::MakeArray();
  for (const char* v : values) list.push_back(Json(v));
  Json s = Typed("string", Words(name));
  s.set("enum", std::move(list));
  return {name, std::move(s), required};
}

inline Json Object(std::initializer_list<Member> members) {
  Json props = Json::MakeObject();
  Json required = Json::MakeArray();
  for (const Member& m : members) {
    props.set(m.name, m.schema);
    if (m.required) required.push_back(Json(m.name));
  }
  Json out = Json::MakeObject();
  out.set("type", Json("object"));
  out.set("properties", std::move(props));
  if (required.size()) out.set("required", std::move(required));
  out.set("additionalProperties", Json(false));
  return out;
}
inline Member Section(const std::string& name, std::initializer_list<Member> members,
                      bool required = false) {
  return {name, Object(members), required};
}
// Optional numbers, one per name.
inline Member Numbers(const std::string& name, std::initializer_list<const char*> names) {
  Json s = Object({});
  for (const char* n : names) s["properties"].set(n, Num(n).schema);
  return {name, std::move(s)};
}

inline Json IncomeStatementYear() {
  return Object({Num("revenue", true),
                 Num("cost_of_revenue"),
                 Num("gross_profit"),
                 Num("research_and_development"),
                 Num("selling_general_administrative"),
                 Num("depreciation_amortization"),
                 Num("other_operating_expenses"),
                 Num("operating_income"),
                 Num("interest_income"),
                 Num("interest_expense"),
                 Num("other_income"),
                 Num("pretax_income"),
                 Num("income_tax"),
                 Num("net_income_continuing"),
                 Num("discontinued_operations"),
                 Num("net_income", true),
                 Num("minority_interest"),
                 Num("net_income_to_parent"),
                 Num("eps_basic"),
                 Num("eps_diluted"),
                 Num("weighted_shares_basic"),
                 Num("weighted_shares_diluted"),
                 Num("dividends_per_share"),
                 Num("ebitda")});
}

inline Json BalanceSheetYear() {
  return Object(
      {Section("assets",
               {Numbers("current", {"cash", "short_term_investments", "receivables", "inventories",
                                    "prepaid", "other_current", "total_current"}),
                Numbers("non_current", {"property_plant_equipment", "intangibles", "goodwill",
                                        "long_term_investments", "deferred_tax_assets",
                                        "right_of_use", "other_non_current", "total_non_current"}),
                Num("total_assets", true)},
               true),
       Section("liabilities",
               {Numbers("current", {"payables", "short_term_debt", "accrued", "deferred_revenue",
                                    "current_lease", "other_current", "total_current"}),
                Numbers("non_current",
                        {"long_term_debt", "lease_liabilities", "deferred_tax_liabilities",
                         "pensions", "provisions", "other_non_current", "total_non_current"}),
                Num("total_liabilities", true)},
               true),
       Section("equity",
               {Num("share_capital"), Num("share_premium"), Num("retained_earnings"),
                Num("treasury_shares"), Num("other_reserves"), Num("minority_interest"),
                Num("total_equity", true)},
               true)});
}

inline Json CashFlowYear() {
  return Object(
      {Section("operating", {Num("net_income"), Num("depreciation"), Num("stock_compensation"),
                             Num("deferred_taxes"), Num("working_capital_change"), Num("other"),
                             Num("net_cash_operating", true)}),
       Numbers("investing", {"capex", "acquisitions", "investment_purchases", "investment_sales",
                             "other", "net_cash_investing"}),
       Numbers("financing", {"debt_issued", "debt_repaid", "shares_issued", "buybacks",
                             "dividends_paid", "other", "net_cash_financing"}),
       Num("fx_effect"), Num("net_change"), Num("cash_begin"), Num("cash_end")});
}

inline Member TwoYears(const std::string& name, Json year) {
  return Section(name, {{"current_year", year, true}, {"prior_year", year}}, true);
}

inline Member Segments() {
  Json items = Object({Text("name", true), Choice("kind", {"business", "geographic"}, true),
                       Choice("region", {"americas", "emea", "apac", "global"}), Num("revenue"),
                       Num("operating_income"), Num("assets"), Num("capex"), Num("depreciation"),
                       Int("employees")});
  Json list = Typed("array", "reportable segments");
  list.set("items", std::move(items));
  return {"segments", std::move(list)};
}

inline Member Quarters() {
  Json q = Numbers("", {"revenue", "gross_profit", "operating_income", "net_income", "eps_diluted"})
               .schema;
  return Section("quarterly", {{"q1", q}, {"q2", q}, {"q3", q}, {"q4", q}});
}

inline Member Notes() {
  return Section(
      "notes",
      {Numbers("leases",
               {"right_of_use_assets", "lease_liabilities_current", "lease_liabilities_non_current",
                "lease_expense", "short_term_lease_expense", "weighted_average_term_years",
                "discount_rate"}),
       Section("pensions", {Num("obligation"), Num("plan_assets"), Num("funded_status"),
                            Num("service_cost"), Num("interest_cost"), Num("expected_return"),
                            Num("discount_rate"), Num("salary_growth"),
                            Choice("plan_type",
                                   {"defined_benefit", "defined_contribution", "hybrid", "none"})}),
       Section("income_taxes",
               {Num("current_domestic"), Num("current_foreign"), Num("deferred_domestic"),
                Num("deferred_foreign"), Num("effective_rate"), Num("statutory_rate"),
                Num("unrecognized_benefits"), Num("loss_carryforwards"), Num("valuation_allowance"),
                Choice("main_jurisdiction",
                       {"US", "UK", "DE", "FR", "NL", "IE", "CH", "JP", "CN", "other"})}),
       Section(
           "debt",
           {Numbers("maturities", {"year_1", "year_2", "year_3", "year_4", "year_5", "thereafter"}),
            Num("average_interest_rate"), Num("fixed_rate_share"),
            Choice("credit_rating", {"AAA", "AA", "A", "BBB", "BB", "B", "CCC", "unrated"}),
            Choice("rating_outlook", {"positive", "stable", "negative"}), Flag("covenants_met"),
            Num("revolver_size"), Num("revolver_drawn")}),
       Section("share_based_compensation",
               {Num("expense"), Num("options_outstanding"), Num("options_exercisable"),
                Num("weighted_exercise_price"), Num("rsus_outstanding"), Num("unrecognized_cost"),
                Choice("plan_kind", {"options", "rsu", "psu", "mixed"})}),
       Numbers("intangibles", {"patents", "trademarks", "customer_relationships", "software",
                               "other", "amortization", "impairment"}),
       Section("goodwill",
               {Num("opening"), Num("acquisitions"), Num("impairment"), Num("fx"), Num("closing"),
                Choice("test_method", {"value_in_use", "fair_value_less_costs"})}),
       Numbers("provisions",
               {"warranty", "restructuring", "legal", "environmental", "other", "total"}),
       Section("contingencies",
               {Num("litigation_amount"), Num("guarantees"),
                Choice("likelihood", {"remote", "possible", "probable"}), Text("description")}),
       Section("derivatives",
               {Num("fx_forwards_notional"), Num("interest_swaps_notional"),
                Num("commodity_notional"), Num("fair_value_assets"), Num("fair_value_liabilities"),
                Choice("hedge_accounting", {"cash_flow", "fair_value", "net_investment", "none"})}),
       Numbers("fair_value", {"level_1", "level_2", "level_3"}),
       Numbers("related_parties", {"sales", "purchases", "receivables", "payables"}),
       Numbers("revenue_disaggregation",
               {"products", "services", "licenses", "subscriptions", "point_in_time", "over_time",
                "remaining_performance_obligations", "contract_assets", "contract_liabilities"}),
       Section("inventories",
               {Num("raw_materials"), Num("work_in_progress"), Num("finished_goods"),
                Num("write_downs"), Choice("method", {"fifo", "weighted_average", "specific"})}),
       Section("property_plant_equipment",
               {Num("land"), Num("buildings"), Num("machinery"), Num("construction_in_progress"),
                Num("accumulated_depreciation"),
                Choice("depreciation_method", {"straight_line", "declining_balance", "units"})}),
       Numbers("earnings_per_share", {"basic", "diluted", "antidilutive_shares", "buyback_shares"}),
       Section("subsequent_events",
               {Flag("occurred"),
                Choice("kind", {"acquisition", "disposal", "financing", "litigation", "other"}),
                Num("amount"), Text("description")}),
       Numbers("auditor_fees", {"audit", "audit_related", "tax", "other"}),
       Section("acquisitions", {Int("count"), Num("consideration_paid"), Num("goodwill_recognized"),
                                Num("revenue_contributed")}),
       Section("restructuring", {Num("charges"), Num("cash_paid"), Num("remaining_liability"),
                                 Choice("program_status", {"announced", "ongoing", "completed"})}),
       Section("dividends", {Num("declared_per_share"), Num("paid_total"), Num("payout_ratio"),
                             Choice("policy", {"progressive", "payout_ratio", "none"})})});
}

}  // namespace financial_report

// The schema (2020-12), the same every call.
inline Json FinancialReportSchema() {
  using namespace financial_report;
  Json s = Object(
      {Section(
           "company",
           {Text("legal_name", true), Text("ticker"),
            Choice("exchange",
                   {"NYSE", "NASDAQ", "LSE", "XETRA", "TSE", "HKEX", "Euronext", "other"}),
            Int("fiscal_year", true), Date("period_end", true),
            Choice("currency", {"USD", "EUR", "GBP", "JPY", "CHF", "CNY", "CAD", "AUD"}, true),
            Choice("reporting_standard", {"IFRS", "US GAAP", "local GAAP"}, true),
            Choice("unit", {"units", "thousands", "millions", "billions"}, true), Text("auditor"),
            Choice("audit_opinion", {"unqualified", "qualified", "adverse", "disclaimer"})},
           true),
       TwoYears("income_statement", IncomeStatementYear()),
       TwoYears("balance_sheet", BalanceSheetYear()), TwoYears("cash_flow", CashFlowYear()),
       Segments(),
       Numbers("ratios", {"gross_margin", "operating_margin", "net_margin", "return_on_equity",
                          "return_on_assets", "current_ratio", "quick_ratio", "debt_to_equity",
                          "interest_coverage", "asset_turnover", "inventory_turnover",
                          "days_sales_outstanding"}),
       Section("employees", {Int("headcount"), Int("americas"), Int("emea"), Int("apac"),
                             Num("turnover_rate"), Num("women_in_management_pct")}),
       Quarters(),
       Section("guidance",
               {Num("revenue_low"), Num("revenue_high"), Num("eps_low"), Num("eps_high"),
                Num("capex"), Choice("outlook", {"raised", "maintained", "lowered", "withdrawn"})}),
       Section("esg", {Num("scope1_emissions"), Num("scope2_emissions"), Num("scope3_emissions"),
                       Num("energy_use_mwh"), Num("water_use_m3"), Num("waste_tonnes"),
                       Choice("rating", {"AAA", "AA", "A", "BBB", "BB", "B", "CCC"}),
                       Num("taxonomy_aligned_revenue_pct")}),
       Notes()});
  s.set("$schema", Json("https://json-schema.org/draft/2020-12/schema"));
  s.set("title", Json("financial report (generated, 369 leaves)"));
  return s;
}

// Leaves of a schema: properties whose schema holds no properties of its own nor items with
// properties (a list of objects counts its items' leaves).
inline size_t CountLeaves(const Json& schema) {
  const Json* items = schema.find("items");
  if (items && items->find("properties")) return CountLeaves(*items);
  const Json* props = schema.find("properties");
  if (!props || !props->is_object()) return 1;
  size_t n = 0;
  for (const auto& [name, sub] : props->as_object()) n += CountLeaves(sub);
  return n;
}

}  // namespace structure::testing
