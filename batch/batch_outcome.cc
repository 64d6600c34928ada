#include "batch/batch_outcome.h"

namespace structure::batch {

std::string LiveSummary(const BatchReport& report, const InFlightCap& cap, bool resumable) {
  double rate =
      report.elapsed_s > 0 ? static_cast<double>(report.run.total()) / report.elapsed_s : 0;
  return FormatSummary(report.all(), report.resumed.total(), report.elapsed_s, rate,
                       report.interrupted, resumable) +
         CapSummary(cap);
}

std::string ForeignResultsWarning(const BatchReport& report, const JournalScan& scan,
                                  const std::string& out_path) {
  if (report.interrupted || report.resumed_seen >= scan.records) return "";
  return "warning: " + std::to_string(scan.records - report.resumed_seen) + " results in " +
         out_path +
         " match no input record: it was written from another input (use a new -o FILE, or "
         "--overwrite)";
}

int ExitStatus(const BatchReport& report) {
  if (!report.io_error.ok()) return 2;
  if (report.interrupted) return 130;
  return report.all().all_ok() ? 0 : 1;
}

}  // namespace structure::batch
