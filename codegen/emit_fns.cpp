// Pure functions: context-level fns (free functions of the context's
// namespace) and static fns (members of their type, or `T_name` beside an
// enum class), declared in the header and defined in the source.
#include <llvm/Support/Casting.h>

#include "codegen/emit.h"

namespace herald::codegen {

void emitFns(Emitter& e) {
  for (const auto& d : e.context.decls) {
    const auto* fn = llvm::dyn_cast<check::FnInfo>(d.get());
    if (fn == nullptr || fn->agent != nullptr || fn->service != nullptr)
      continue;
    std::string name = cppName(fn->name);
    std::string qualified = name;
    if (fn->ownerType != nullptr) {
      std::string owner = cppName(fn->ownerType->name);
      if (isEnumSum(*fn->ownerType)) {
        name = owner + "_" + name;
        qualified = name;
      } else {
        qualified = owner + "::" + name;
        name.clear();  // declared in the type
      }
    }
    if (!name.empty())
      e.out.fns += e.header.result(fn->sig.result) + " " + name + "(" +
                   Emitter::params(e.header, fn->sig.params) + ");\n";
    if (!fn->body.valid()) continue;
    std::string body = e.bodies.statements(fn->body, 2);
    e.out.publicDefs += e.source.result(fn->sig.result) + " " + qualified +
                        "(" + Emitter::params(e.source, fn->sig.params, body) +
                        ") {\n" + body + "}\n\n";
  }
}

}  // namespace herald::codegen
