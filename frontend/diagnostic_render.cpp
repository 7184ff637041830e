#include "frontend/diagnostic_render.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>

#include <fmt/format.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/ConvertUTF.h>
#include <llvm/Support/Unicode.h>
#include <llvm/Support/raw_ostream.h>
#include <nlohmann/json.hpp>

// Columns in `file:line:col` and in JSON are 1-based byte columns, as
// SourceFile computes them. Excerpts are laid out in terminal cells instead,
// so a caret lands under the character it means: a tab advances to the next
// multiple of kTabStop, a UTF-8 character takes its terminal width (2 for CJK,
// 0 for combining marks), and bytes a terminal would garble (control
// characters, invalid UTF-8) are shown as visible `<U+XXXX>` / `<XX>`.

namespace herald {
namespace {

constexpr std::uint32_t kTabStop = 8;
// Longer lines are clipped around the range (with "..." where cut), so an
// excerpt stays readable and rendering stays linear in the number of
// diagnostics even on a huge single-line input.
constexpr std::uint32_t kMaxExcerptBytes = 256;
constexpr std::uint32_t kContextBeforeBytes = 64;

// ANSI styles, the ones clang uses for the same roles.
constexpr std::string_view kReset = "\033[0m";
constexpr std::string_view kBold = "\033[1m";
constexpr std::string_view kErrorStyle = "\033[1;31m";
constexpr std::string_view kWarningStyle = "\033[1;33m";
constexpr std::string_view kNoteStyle = "\033[1;36m";
constexpr std::string_view kCaretStyle = "\033[1;32m";

// A resolved position: the range's start and (exclusive) end as line/column.
struct Location {
  const SourceFile* file = nullptr;
  std::uint32_t beginOffset = 0;
  std::uint32_t endOffset = 0;
  LineColumn begin;
  LineColumn end;
};

// Ranges come from many phases; a bad one must still render, so offsets are
// clamped to the file and an inverted range becomes empty.
std::optional<Location> locate(const SourceManager& sources, SourceRange r) {
  if (r.file >= sources.size()) return std::nullopt;
  const SourceFile& file = sources.file(r.file);
  auto size = static_cast<std::uint32_t>(file.text().size());
  std::uint32_t begin = std::min(r.begin, size);
  std::uint32_t end = std::clamp(r.end, begin, size);
  return Location{&file, begin, end, file.lineColumn(begin),
                  file.lineColumn(end)};
}

// One source line as shown in an excerpt: the text to print and, for every
// byte offset of the line (and one past its end), the cell where it starts.
struct DisplayLine {
  std::string text;
  std::vector<std::uint32_t> cellOf;
};

std::uint32_t appendCodePointEscape(std::string& out, std::uint32_t cp) {
  std::string escape = fmt::format("<U+{:04X}>", cp);
  out += escape;
  return static_cast<std::uint32_t>(escape.size());
}

DisplayLine layoutLine(std::string_view line) {
  DisplayLine d;
  d.cellOf.assign(line.size() + 1, 0);
  std::uint32_t cell = 0;
  std::size_t i = 0;
  while (i < line.size()) {
    auto byte = static_cast<unsigned char>(line[i]);
    std::size_t length = 1;
    std::uint32_t width = 0;
    if (byte == '\t') {
      width = kTabStop - cell % kTabStop;
      d.text.append(width, ' ');
    } else if (byte >= 0x20 && byte < 0x7f) {
      d.text += static_cast<char>(byte);
      width = 1;
    } else if (byte < 0x80) {
      width = appendCodePointEscape(d.text, byte);
    } else {
      unsigned need = llvm::getNumBytesForUTF8(byte);
      std::string_view seq = line.substr(i, need);
      const auto* src = reinterpret_cast<const llvm::UTF8*>(seq.data());
      llvm::UTF32 cp = 0;
      bool valid = need > 1 && seq.size() == need &&
                   llvm::convertUTF8Sequence(&src, src + seq.size(), &cp,
                                             llvm::strictConversion) ==
                       llvm::conversionOK;
      if (!valid) {
        std::string escape = fmt::format("<{:02X}>", byte);
        d.text += escape;
        width = static_cast<std::uint32_t>(escape.size());
      } else {
        length = need;
        int w = llvm::sys::unicode::columnWidthUTF8(
            llvm::StringRef(seq.data(), seq.size()));
        if (w < 0) {
          width = appendCodePointEscape(d.text, cp);
        } else {
          d.text += seq;
          width = static_cast<std::uint32_t>(w);
        }
      }
    }
    for (std::size_t k = i; k < i + length; ++k) d.cellOf[k] = cell;
    cell += width;
    i += length;
  }
  d.cellOf[line.size()] = cell;
  return d;
}

// At most three steps back, as far as a UTF-8 sequence reaches: a longer run
// of continuation bytes is invalid text, and following it back could carry a
// clip's end to before its focus.
std::uint32_t backToCodePointStart(std::string_view s, std::uint32_t i) {
  for (int step = 0; step < 3 && i > 0 && i < s.size() &&
                     (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80;
       ++step)
    --i;
  return i;
}

// The part of `line` an excerpt shows: bytes [begin, end).
struct Clip {
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
};

Clip clipAround(std::string_view line, std::uint32_t focus) {
  auto length = static_cast<std::uint32_t>(line.size());
  if (length <= kMaxExcerptBytes) return {0, length};
  std::uint32_t begin = backToCodePointStart(
      line, focus > kContextBeforeBytes ? focus - kContextBeforeBytes : 0);
  std::uint32_t end = length - begin > kMaxExcerptBytes
                          ? backToCodePointStart(line, begin + kMaxExcerptBytes)
                          : length;
  return {begin, end};
}

std::string escapeForQuote(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// The line an insertion adds after the end of a line: the replacement is
// line breaks, then one line (`\n  consumes a.b`). Empty for any other
// replacement.
std::string_view insertedLine(std::string_view replacement) {
  if (replacement.empty() || replacement.front() != '\n') return {};
  std::string_view line =
      replacement.substr(replacement.find_first_not_of('\n'));
  if (line.find('\n') != std::string_view::npos) return {};
  return line;
}

}  // namespace

std::optional<std::string> fixitLabel(const SourceManager& sources,
                                      const FixIt& f) {
  std::optional<Location> loc = locate(sources, f.range);
  bool empty = !loc || loc->beginOffset == loc->endOffset;
  if (empty && f.replacement.empty()) return std::nullopt;
  std::string_view line = insertedLine(f.replacement);
  if (empty && !line.empty()) {
    std::size_t indent = line.find_first_not_of(" \t");
    return fmt::format(
        "insert line '{}'",
        escapeForQuote(line.substr(std::min(indent, line.size()))));
  }
  if (empty) return fmt::format("insert '{}'", escapeForQuote(f.replacement));
  if (f.replacement.empty()) {
    std::string_view old = loc->file->text().substr(
        loc->beginOffset, loc->endOffset - loc->beginOffset);
    return fmt::format("remove '{}'", escapeForQuote(old));
  }
  return fmt::format("replace with '{}'", escapeForQuote(f.replacement));
}

namespace {

std::size_t countDigits(std::uint32_t n) {
  std::size_t digits = 1;
  while (n >= 10) {
    n /= 10;
    ++digits;
  }
  return digits;
}

// `1 error`, `2 errors`.
std::string countOf(std::size_t n, std::string_view word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

std::string_view severityStyle(Severity severity) {
  switch (severity) {
    case Severity::Error:
      return kErrorStyle;
    case Severity::Warning:
      return kWarningStyle;
    case Severity::Note:
      return kNoteStyle;
  }
  return kErrorStyle;
}

class TextWriter {
 public:
  TextWriter(const SourceManager& sources, bool color)
      : sources_(sources), color_(color) {}

  void diagnostic(const Diagnostic& d);
  void runMessage(const RunMessage& m);
  void summary(const std::vector<Diagnostic>& diags);
  std::string take() { return std::move(out_); }

 private:
  void styled(std::string_view style, std::string_view text) {
    if (color_) {
      out_ += style;
      out_ += text;
      out_ += kReset;
    } else {
      out_ += text;
    }
  }
  void location(const Location& loc) {
    styled(kBold, fmt::format("{}:{}:{}:", loc.file->name(), loc.begin.line,
                              loc.begin.column));
    out_ += ' ';
  }
  void gutter(std::string_view number, std::size_t width) {
    out_ += fmt::format("{:>{}} |", number, width);
  }
  // The source line `text`, then marks under its bytes [fromByte, toByte)
  // (at least one mark).
  void excerpt(std::uint32_t lineNumber, std::string_view text,
               std::uint32_t fromByte, std::uint32_t toByte, char first,
               char rest);
  void caretExcerpt(const Location& loc);
  void fixit(const FixIt& f, const SourceFile* diagFile);

  const SourceManager& sources_;
  bool color_;
  std::string out_;
};

void TextWriter::excerpt(std::uint32_t lineNumber, std::string_view text,
                         std::uint32_t fromByte, std::uint32_t toByte,
                         char first, char rest) {
  auto length = static_cast<std::uint32_t>(text.size());
  fromByte = std::min(fromByte, length);
  toByte = std::clamp(toByte, fromByte, length);
  Clip clip = clipAround(text, fromByte);
  DisplayLine line = layoutLine(text.substr(clip.begin, clip.end - clip.begin));
  constexpr std::string_view kCut = "...";
  std::uint32_t shift = 0;
  if (clip.begin > 0) {
    line.text.insert(0, kCut);
    shift = static_cast<std::uint32_t>(kCut.size());
  }
  if (clip.end < length) line.text += kCut;
  std::uint32_t from = shift + line.cellOf[fromByte - clip.begin];
  std::uint32_t to =
      shift + line.cellOf[std::min(toByte, clip.end) - clip.begin];

  std::size_t width = std::max<std::size_t>(5, countDigits(lineNumber));
  gutter(std::to_string(lineNumber), width);
  if (!line.text.empty()) {
    out_ += ' ';
    out_ += line.text;
  }
  out_ += '\n';
  gutter("", width);
  out_ += ' ';
  out_.append(from, ' ');
  std::string marks(1, first);
  if (to > from + 1) marks.append(to - from - 1, rest);
  styled(kCaretStyle, marks);
  out_ += '\n';
}

void TextWriter::caretExcerpt(const Location& loc) {
  std::string_view text = loc.file->lineText(loc.begin.line);
  // A range that runs past this line is underlined to the end of the line.
  std::uint32_t end = loc.end.line == loc.begin.line
                          ? loc.end.column - 1
                          : static_cast<std::uint32_t>(text.size());
  excerpt(loc.begin.line, text, loc.begin.column - 1, end, '^', '~');
}

void TextWriter::fixit(const FixIt& f, const SourceFile* diagFile) {
  std::optional<Location> loc = locate(sources_, f.range);
  if (!loc) return;
  std::optional<std::string> label = fixitLabel(sources_, f);
  if (!label) return;
  bool empty = loc->beginOffset == loc->endOffset;

  if (loc->file != diagFile) location(*loc);
  styled(kCaretStyle, "help:");
  out_ += ' ';
  out_ += *label;
  out_ += '\n';

  // An inserted line is shown where it will stand, numbered as it will be.
  std::string_view inserted = insertedLine(f.replacement);
  if (empty && !inserted.empty()) {
    auto breaks =
        static_cast<std::uint32_t>(f.replacement.size() - inserted.size());
    auto indent = static_cast<std::uint32_t>(
        std::min(inserted.find_first_not_of(" \t"), inserted.size()));
    excerpt(loc->begin.line + breaks, inserted, indent,
            static_cast<std::uint32_t>(inserted.size()), '+', '+');
    return;
  }
  // Otherwise the suggested line is shown only when the edit stays within
  // one line; a multi-line edit is fully described by the help text above.
  if (loc->begin.line != loc->end.line ||
      f.replacement.find('\n') != std::string::npos)
    return;
  std::string_view text = loc->file->lineText(loc->begin.line);
  auto length = static_cast<std::uint32_t>(text.size());
  std::uint32_t b = std::min(loc->begin.column - 1, length);
  std::uint32_t e = std::clamp(loc->end.column - 1, b, length);
  if (f.replacement.empty()) {
    excerpt(loc->begin.line, text, b, e, '-', '-');
    return;
  }
  std::string suggested(text.substr(0, b));
  suggested += f.replacement;
  suggested += text.substr(e);
  char mark = empty ? '+' : '~';
  excerpt(loc->begin.line, suggested, b,
          b + static_cast<std::uint32_t>(f.replacement.size()), mark, mark);
}

void TextWriter::diagnostic(const Diagnostic& d) {
  const DiagInfo& info = diagInfo(d.kind);
  std::optional<Location> loc = locate(sources_, d.range);
  if (loc) location(*loc);
  styled(severityStyle(info.severity),
         fmt::format("{}[{}]:", severityName(info.severity), info.code));
  out_ += ' ';
  styled(kBold, d.message);
  out_ += '\n';
  if (loc) caretExcerpt(*loc);

  for (const DiagnosticNote& note : d.notes) {
    std::optional<Location> noteLoc;
    if (note.hasRange) noteLoc = locate(sources_, note.range);
    if (noteLoc) location(*noteLoc);
    styled(kNoteStyle, "note:");
    out_ += ' ';
    out_ += note.message;
    out_ += '\n';
    if (noteLoc) caretExcerpt(*noteLoc);
  }
  for (const FixIt& f : d.fixits) fixit(f, loc ? loc->file : nullptr);
}

void TextWriter::runMessage(const RunMessage& m) {
  styled(severityStyle(m.severity),
         fmt::format("{}:", severityName(m.severity)));
  out_ += ' ';
  out_ += m.message;
  out_ += '\n';
}

void TextWriter::summary(const std::vector<Diagnostic>& diags) {
  std::size_t errors = 0;
  std::size_t warnings = 0;
  for (const Diagnostic& d : diags) {
    switch (d.severity()) {
      case Severity::Error:
        ++errors;
        break;
      case Severity::Warning:
        ++warnings;
        break;
      case Severity::Note:
        break;
    }
  }
  std::vector<std::string> parts;
  if (errors != 0) parts.push_back(countOf(errors, "error"));
  if (warnings != 0) parts.push_back(countOf(warnings, "warning"));
  if (parts.empty()) return;
  out_ += fmt::format("{} generated.\n", fmt::join(parts, ", "));
}

using Json = nlohmann::ordered_json;

// Writes file/line/column/offset/endLine/endColumn/endOffset; null fields
// when the range names no file.
void jsonLocation(Json& j, const SourceManager& sources, SourceRange range) {
  std::optional<Location> loc = locate(sources, range);
  if (!loc) {
    for (const char* key : {"file", "line", "column", "offset", "endLine",
                            "endColumn", "endOffset"})
      j[key] = nullptr;
    return;
  }
  j["file"] = loc->file->name();
  j["line"] = loc->begin.line;
  j["column"] = loc->begin.column;
  j["offset"] = loc->beginOffset;
  j["endLine"] = loc->end.line;
  j["endColumn"] = loc->end.column;
  j["endOffset"] = loc->endOffset;
}

Json jsonDiagnostic(const SourceManager& sources, const Diagnostic& d) {
  const DiagInfo& info = diagInfo(d.kind);
  Json j = Json::object();
  j["version"] = kJsonFormatVersion;
  j["severity"] = severityName(info.severity);
  j["code"] = info.code;
  j["name"] = info.name;
  j["message"] = d.message;
  jsonLocation(j, sources, d.range);
  Json notes = Json::array();
  for (const DiagnosticNote& note : d.notes) {
    Json n = Json::object();
    n["message"] = note.message;
    if (note.hasRange) jsonLocation(n, sources, note.range);
    notes.push_back(std::move(n));
  }
  j["notes"] = std::move(notes);
  Json fixits = Json::array();
  for (const FixIt& f : d.fixits) {
    std::optional<std::string> label = fixitLabel(sources, f);
    if (!label) continue;
    Json fix = Json::object();
    fix["label"] = std::move(*label);
    jsonLocation(fix, sources, f.range);
    fix["replacement"] = f.replacement;
    fixits.push_back(std::move(fix));
  }
  j["fixits"] = std::move(fixits);
  return j;
}

Json jsonRunMessage(const RunMessage& m) {
  Json j = Json::object();
  j["version"] = kJsonFormatVersion;
  j["severity"] = severityName(m.severity);
  j["code"] = nullptr;
  j["name"] = m.name;
  j["message"] = m.message;
  for (const char* key : {"file", "line", "column", "offset", "endLine",
                          "endColumn", "endOffset"})
    j[key] = nullptr;
  j["notes"] = Json::array();
  j["fixits"] = Json::array();
  return j;
}

}  // namespace

std::optional<RunMessage> errorLimitNote(const DiagnosticEngine& diags) {
  const std::size_t errors = diags.omittedErrors();
  const std::size_t warnings = diags.omittedWarnings();
  if (errors == 0 && warnings == 0) return std::nullopt;
  std::string held = countOf(errors, "more error");
  if (warnings != 0) held += " and " + countOf(warnings, "warning");
  std::string_view stopped =
      diags.stoppedEarly() ? ", and heraldc stopped looking for more" : "";
  return RunMessage{Severity::Note, "error-limit",
                    fmt::format("error limit of {} reached: {} not shown{} "
                                "(--error-limit=0 shows all)",
                                diags.errorLimit(), held, stopped)};
}

std::string renderText(const SourceManager& sources,
                       const std::vector<Diagnostic>& diags,
                       TextRenderOptions options,
                       const std::vector<RunMessage>& run) {
  TextWriter writer(sources, options.color);
  for (const Diagnostic& d : diags) writer.diagnostic(d);
  for (const RunMessage& m : run) writer.runMessage(m);
  writer.summary(diags);
  return writer.take();
}

std::string renderJson(const SourceManager& sources,
                       const std::vector<Diagnostic>& diags,
                       const std::vector<RunMessage>& run) {
  Json array = Json::array();
  for (const Diagnostic& d : diags) array.push_back(jsonDiagnostic(sources, d));
  for (const RunMessage& m : run) array.push_back(jsonRunMessage(m));
  // Messages and file names may hold raw source bytes that are not UTF-8;
  // each invalid sequence becomes U+FFFD rather than an exception.
  std::string out =
      array.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  out += '\n';
  return out;
}

}  // namespace herald
