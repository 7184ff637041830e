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

// What a body's name or path resolved to: the local, parameter or
// dependency it names, or the declaration and the member after it.
void recordResolution(Program& program, llvm::ArrayRef<ast::Ident> parts,
                      const Resolution& r);

}  // namespace herald::check
