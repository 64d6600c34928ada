// Small PDFs made by the tests themselves (ISO 32000-1: a catalog, a page tree, one Helvetica
// font, one content stream per page, a cross-reference table with exact offsets), so the PDF
// reader and the file path are tested on real documents without binary fixtures.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace structure::testing {

// One line of text placed at (x, y) in points from the page's lower left corner. `text` is
// written as a PDF literal string: "(", ")" and "\" are escaped; octal escapes such as "\256"
// (StandardEncoding's "fi" ligature) may be passed with `raw`.
struct PdfLine {
  double x = 72;
  double y = 720;
  std::string text;
  bool raw = false;
};

using PdfPage = std::vector<PdfLine>;

// Lines one under the other from the top of a page.
inline PdfPage PdfTextPage(const std::vector<std::string>& lines) {
  PdfPage page;
  double y = 720;
  for (const std::string& l : lines) {
    page.push_back({72, y, l, false});
    y -= 16;
  }
  return page;
}

inline std::string PdfLiteral(const PdfLine& line) {
  if (line.raw) return "(" + line.text + ")";
  std::string out = "(";
  for (char c : line.text) {
    if (c == '(' || c == ')' || c == '\\') out += '\\';
    out += c;
  }
  return out + ")";
}

// `extra_page_entry`: text added to every page dictionary (e.g. a deeply nested array).
inline std::string MakePdf(const std::vector<PdfPage>& pages,
                           const std::string& extra_page_entry = "") {
  std::vector<std::string> objects;  // object i + 1
  objects.push_back("<< /Type /Catalog /Pages 2 0 R >>");
  std::string kids;
  for (size_t i = 0; i < pages.size(); ++i) kids += std::to_string(4 + 2 * i) + " 0 R ";
  objects.push_back("<< /Type /Pages /Kids [" + kids + "] /Count " + std::to_string(pages.size()) +
                    " >>");
  objects.push_back("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  for (size_t i = 0; i < pages.size(); ++i) {
    std::string content;
    for (const PdfLine& l : pages[i]) {
      char pos[64];
      std::snprintf(pos, sizeof pos, "%.1f %.1f", l.x, l.y);
      content += "BT /F1 12 Tf " + std::string(pos) + " Td " + PdfLiteral(l) + " Tj ET\n";
    }
    objects.push_back(
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font "
        "<< /F1 3 0 R >> >> /Contents " +
        std::to_string(5 + 2 * i) + " 0 R " + extra_page_entry + ">>");
    objects.push_back("<< /Length " + std::to_string(content.size()) + " >>\nstream\n" + content +
                      "endstream");
  }
  std::string pdf = "%PDF-1.4\n%\xE2\xE3\xCF\xD3\n";
  std::vector<size_t> offsets;
  for (size_t i = 0; i < objects.size(); ++i) {
    offsets.push_back(pdf.size());
    pdf += std::to_string(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
  }
  size_t xref = pdf.size();
  pdf += "xref\n0 " + std::to_string(objects.size() + 1) + "\n0000000000 65535 f \n";
  for (size_t off : offsets) {
    char entry[32];
    std::snprintf(entry, sizeof entry, "%010zu 00000 n \n", off);
    pdf += entry;
  }
  pdf += "trailer\n<< /Size " + std::to_string(objects.size() + 1) +
         " /Root 1 0 R >>\nstartxref\n" + std::to_string(xref) + "\n%%EOF\n";
  return pdf;
}

// A 1x1 PNG (RFC 2083): signature, IHDR, IDAT, IEND.
inline std::string TinyPng() {
  static const unsigned char kBytes[] = {
      0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48,
      0x44, 0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00,
      0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78,
      0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0xF0, 0x1F, 0x00, 0x05, 0x00, 0x01, 0xFF, 0x89, 0x99,
      0x3D, 0x1D, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82};
  return std::string(reinterpret_cast<const char*>(kBytes), sizeof kBytes);
}

// The start of a JPEG file (SOI, then an APP0 JFIF segment): enough for media type detection.
inline std::string JpegHead() {
  return std::string("\xFF\xD8\xFF\xE0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00", 20) +
         std::string("\xFF\xD9", 2);
}

}  // namespace structure::testing
