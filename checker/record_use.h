// Recording where a resolved name points (Program::uses, ir/uses.h): one
// helper per shape of resolution, called where the checker settles what a
// name written in the source denotes. Internal to checker/.
#pragma once

#include <llvm/ADT/ArrayRef.h>

#include "checker/resolve.h"
#include "frontend/ast.h"
#include "ir/program.h"

namespace herald::check {

// `parts` (all of them) name `decl`: its last part is the declaration's
// name, the parts before it a context or an alias.
void recordDeclUse(Program& program, llvm::ArrayRef<ast::Ident> parts,
                   const DeclInfo* decl);

// A call's argument label naming its parameter (`f(amount: x)`); nothing
// for a built-in's parameter, which has no source.
void recordLabelUse(Program& program, const ast::Ident& label,
                    SourceRange param);

// The names of a `consumes` line: the context (its whole qualified name,
// denoting where the context is first opened) and each name of its
// `{ A, B }` list the context declares.
void recordConsumesUses(Program& program, const ast::ConsumesDecl& decl,
                        const ContextInfo& target);

// What a body's name or path resolved to: the local, parameter or
// dependency it names, or the declaration and the member after it.
void recordResolution(Program& program, llvm::ArrayRef<ast::Ident> parts,
                      const Resolution& r);

}  // namespace herald::check
