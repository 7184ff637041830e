#include "bench/gen/host.h"

namespace herald::bench::host {

void writeUse(TextWriter& w) {
  w.line("// Every field read adds to the checksum main returns from.");
  w.line("void use(std::uint64_t& sum, std::int64_t v) {{");
  w.line("  sum += static_cast<std::uint64_t>(v);");
  w.line("}}");
  w.line("void use(std::uint64_t& sum, double v) {{");
  w.line("  sum += static_cast<std::uint64_t>(v * 2);");
  w.line("}}");
  w.line("void use(std::uint64_t& sum, bool v) {{ sum += v ? 1 : 0; }}");
  w.line("void use(std::uint64_t& sum, std::string_view v) {{");
  w.line("  sum += v.size();");
  w.line("}}");
  w.blank();
}

const Variant& chosenVariant(const TypeDecl& sum) {
  for (const Variant& variant : sum.variants) {
    if (!variant.fields.empty()) return variant;
  }
  return sum.variants.front();
}

}  // namespace herald::bench::host
