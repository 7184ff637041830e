// Small spellings shared by the IR dump and the flow graph: types that may be
// unresolved, declaration names, parameter lists, `via` ranges and source
// text squeezed onto one line.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "frontend/source.h"
#include "ir/program.h"

namespace herald::check {

// qualifiedName(type), or `{unresolved}` for a type never set.
[[nodiscard]] std::string typeText(const Type* type);
// The qualified name, or the bare name of a first-party capability.
[[nodiscard]] std::string declText(const DeclInfo* decl);
// `(a: Int, b: commerce.order.Money)`.
[[nodiscard]] std::string paramsText(const std::vector<FieldInfo>& params);
// `schema(1..)`, `schema(..3)`, `schema(2)`.
[[nodiscard]] std::string viaText(const VersionRange& via);
// The source text of `range` with every run of whitespace made one space.
[[nodiscard]] std::string oneLine(const SourceManager& sources,
                                  SourceRange range);

}  // namespace herald::check
