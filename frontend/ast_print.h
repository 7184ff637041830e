// Prints an AST back as canonical Herald source (`heraldc fmt`): braces for
// subscription patterns, `=` in event declarations, one declaration per
// line, two-space indentation (as in the language reference). Re-parsing the output gives the same AST.
//
// Line breaks follow one rule (language reference, section 12): a group (a
// bracketed list, a service header, an `if` chain, `match` or block inside
// an expression) is one line when it ends within 100 columns and holds no
// block of several statements and no commented body; otherwise every
// element goes on its own line, one indent deeper, with a trailing comma.
//
// Comments are not in the AST; given the file's `--` comments (from
// collectComments() in frontend/lexer.h), the printer places each by its
// source position relative to the line-level items it prints: declarations,
// agent/service/capability members, record and event fields, sum variants,
// statements and match arms.
//   - A comment on its own line(s) before an item is printed before it, at
//     its indentation (before the item's `---` doc block when it came before
//     it in the source, after it otherwise).
//   - A comment after an item on the item's last line stays at the end of
//     that line; one after an opening `{` (or after a context header) stays
//     at the end of that line.
//   - A comment after the last item of a body stays before the closing brace;
//     after the last declaration of the file, at the end of the file.
//   - A comment anywhere else (inside an expression, a parameter list, a
//     service header, a line the printer joins) moves to just before the
//     innermost enclosing item. A record or sum body holding a comment is
//     printed one field or variant per line.
// Blank lines: between declarations, members and statements a single blank
// line is kept where the source had one or more, and the canonical style
// adds one between declarations that are not one-line declarations of the
// same kind. Inside a group of comments, and between the group and the item
// it precedes, a blank line in the source stays one blank line. Everything
// else is dropped, so printing canonical output again changes nothing.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <llvm/ADT/ArrayRef.h>

#include "frontend/ast.h"
#include "frontend/source.h"

namespace herald {

// Without comments and without looking at the source's blank lines.
[[nodiscard]] std::string printFile(const ast::File& file);

struct PrintedFile {
  std::string text;
  // Comments (of the input) not printed exactly once. When there are any,
  // `text` must not replace the source.
  std::vector<SourceRange> misplaced;
};

// `source` is the file `file` was parsed from; `comments` its comments in
// source order.
[[nodiscard]] PrintedFile printFile(const ast::File& file,
                                    const SourceFile& source,
                                    llvm::ArrayRef<SourceRange> comments);

// Compares the comments of two texts as multisets of their spellings. The
// first difference, as `line N: ...` (a line of `before`, or of `after` for
// a comment only the output has), or nothing when they hold the same.
[[nodiscard]] std::optional<std::string> compareComments(
    const SourceFile& before, llvm::ArrayRef<SourceRange> beforeComments,
    const SourceFile& after, llvm::ArrayRef<SourceRange> afterComments);

}  // namespace herald
