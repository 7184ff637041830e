// The text forms of numbers, the envelope and its id (herald/text.hpp), and
// fault text (herald/errors.hpp).
#include "herald/text.hpp"

#include <algorithm>
#include <charconv>

#include "herald/envelope.hpp"
#include "herald/errors.hpp"
#include "herald/event_id.hpp"

namespace herald {
namespace {
// The length of the valid UTF-8 sequence (RFC 3629: no overlong forms, no
// surrogates, nothing past U+10FFFF) at the start of `s`, or 0.
std::size_t valid_sequence(std::string_view s) {
  const auto byte = [&](std::size_t i) {
    return static_cast<unsigned char>(s[i]);
  };
  const unsigned char b0 = byte(0);
  if (b0 < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80;
  unsigned char hi = 0xBF;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3;
    if (b0 == 0xE0) lo = 0xA0;  // overlong
    if (b0 == 0xED) hi = 0x9F;  // surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4;
    if (b0 == 0xF0) lo = 0x90;  // overlong
    if (b0 == 0xF4) hi = 0x8F;  // past U+10FFFF
  } else {
    return 0;
  }
  if (s.size() < n) return 0;
  if (byte(1) < lo || byte(1) > hi) return 0;
  for (std::size_t i = 2; i < n; ++i) {
    if (byte(i) < 0x80 || byte(i) > 0xBF) return 0;
  }
  return n;
}

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD
constexpr std::string_view kCut = "...";
}  // namespace

std::size_t invalid_utf8_at(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const std::size_t n = valid_sequence(s.substr(i));
    if (n == 0) return i;
    i += n;
  }
  return std::string_view::npos;
}

std::string fault_text(std::string_view raw) {
  std::string out;
  out.reserve(std::min(raw.size(), kFaultTextMaxBytes));
  std::size_t i = 0;
  while (i < raw.size() && out.size() <= kFaultTextMaxBytes) {
    const std::size_t n = valid_sequence(raw.substr(i));
    out += n == 0 ? kReplacement : raw.substr(i, n);
    i += n == 0 ? 1 : n;
  }
  if (out.size() <= kFaultTextMaxBytes) return out;
  // Cut before the character that crosses the bound, leaving room for the
  // mark.
  std::size_t end = kFaultTextMaxBytes - kCut.size();
  while (end > 0 && (static_cast<unsigned char>(out[end]) & 0xC0) == 0x80)
    --end;
  out.resize(end);
  out += kCut;
  return out;
}

namespace detail {

void append_signed(std::string& out, long long n) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, n);
  out.append(buf, end);
}

void append_unsigned(std::string& out, unsigned long long n) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, n);
  out.append(buf, end);
}

void append_float(std::string& out, double d) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);
  std::string_view text(buf, static_cast<std::size_t>(end - buf));
  out += text;
  if (text.find_first_of(".eEn") == std::string_view::npos) out += ".0";
}

}  // namespace detail

void append_text(std::string& out, const EventId& id) { out += id.str(); }

void append_text(std::string& out, const EventEnvelope& env) {
  out += "EventEnvelope { eventId: ";
  append_text(out, env.eventId);
  out += ", eventType: ";
  out += env.eventType;
  out += ", publisherId: ";
  out += env.publisherId;
  out += ", sequence: ";
  append_text(out, env.sequence);
  out += ", emittedAt: ";
  append_text(out, env.emittedAt);
  out += ", schemaVersion: ";
  append_text(out, env.schemaVersion);
  out += ", causationId: ";
  if (env.causationId) {
    out += "Some(";
    append_text(out, *env.causationId);
    out += ')';
  } else {
    out += "None";
  }
  out += ", correlationId: ";
  append_text(out, env.correlationId);
  out += ", depth: ";
  append_text(out, env.depth);
  out += " }";
}

}  // namespace herald
