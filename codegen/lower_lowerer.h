// The lowering of one body (lower_body.h), shared by the files that lower
// statements (lower_stmt.cpp), expressions (lower_expr.cpp), calls and
// effects (lower_call.cpp) and patterns (lower_pattern.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "codegen/names.h"
#include "ir/inst_views.h"
#include "ir/program.h"

namespace herald::codegen::lower {

// Binding strength of a C++ expression: what an operand may be without
// parentheses.
enum class Prec : std::uint8_t {
  Primary,  // names, calls, literals, member access, lambdas called
  Unary,    // `!x`, `-x`, `*x`
  Mul,      // `* /`
  Add,      // `+ -`
  Compare,  // `< <= > >= == !=`
  And,      // `&&`
  Or,       // `||`
  Ternary,  // `c ? a : b`
};

struct Cpp {
  std::string text;
  Prec prec = Prec::Primary;
  // A void C++ expression standing for a `()` value (a call of a fn that
  // returns `()`, a message, an emission, `fail`).
  bool isVoid = false;
  // False when the C++ type only converts to the Herald type's (a string
  // literal, `std::nullopt`, an Int literal, a millisecond count).
  bool exact = true;
};

// Whether a value of `t` is `()` (or has no type).
[[nodiscard]] bool isUnit(const check::Type* t);
[[nodiscard]] bool isNever(const check::Type* t);
// A sum whose variants carry no payload: a C++ enum class.
[[nodiscard]] bool isEnumSum(const check::TypeInfo* type);
// A fn of an agent that needs no invocation: it reads stores at most.
[[nodiscard]] bool effectFree(const check::FnInfo& fn);
// `c` as an operand: parenthesised past `limit`.
[[nodiscard]] std::string paren(const Cpp& c, Prec limit);

// The lowering of one body, built from the body (its typed owner says
// what the function around it declares): its statements or its value.
class Lowerer {
 public:
  Lowerer(const check::Program& program, Spelling& spelling,
          check::BodyId body);

  // The statements of a fn or handler body, each line indented by
  // `indent` spaces.
  [[nodiscard]] std::string statements(unsigned indent);
  // The value of a store initialiser, invariant or field default.
  [[nodiscard]] std::string expression();

 private:
  // ---- lower_stmt.cpp
  enum class Sink : std::uint8_t { Discard, Return };
  // Statements that compute `id` and hand its value to `sink`.
  void tail(check::InstId id, Sink sink);
  // `id` as a statement whose value is discarded.
  void statement(check::InstId id);
  void blockStatements(const check::Inst& block, Sink sink);
  void ifStatement(const check::Inst& inst, Sink sink);
  // `[&]() -> T { ... }()` of a statement form in value position.
  Cpp lambda(check::InstId id, const check::Type* want);
  void line(const std::string& text);

  // ---- lower_expr.cpp
  // `id` in value position. `want` is the expected type when known: a
  // value of type Never (`fail`) takes it.
  Cpp expr(check::InstId id, const check::Type* want = nullptr);
  // A value with its Herald type's exact C++ type; `()` is `herald::Unit`.
  std::string exact(check::InstId id, const check::Type* want = nullptr);
  std::string exactText(const Cpp& c, const check::Type* t);
  // An exact value as an operand: parenthesised past `limit`.
  std::string exactOperand(check::InstId id, Prec limit,
                           const check::Type* want = nullptr);
  std::string operandText(Cpp c, Prec limit);
  // A value that may convert to its type (arguments, initialisers).
  std::string value(check::InstId id, const check::Type* want = nullptr);
  std::string operand(check::InstId id, Prec limit,
                      const check::Type* want = nullptr);
  // The branch of an `if` that is one plain expression, so that the `if`
  // can be a conditional expression.
  [[nodiscard]] bool plain(check::InstId id) const;
  Cpp binary(const check::Inst& inst, const check::Type* want);
  Cpp unary(const check::Inst& inst, const check::Type* want);
  Cpp literal(const check::Inst& inst);
  Cpp fields(const check::Inst& inst);
  Cpp envelope(const check::Inst& inst);

  // ---- lower_call.cpp
  Cpp call(const check::Inst& inst);
  Cpp capCall(const check::Inst& inst);
  Cpp message(const check::Inst& inst);
  Cpp method(const check::Inst& inst);
  Cpp variant(const check::Inst& inst);
  // A call of `build` with the arguments `ids` (in parameter order).
  Cpp arguments(llvm::ArrayRef<check::InstId> ids,
                const std::vector<check::FieldInfo>& params,
                const check::Type* result,
                const std::function<Cpp(std::string)>& build);
  std::string capability(const check::CapabilityInfo& cap);

  // ---- lower_order.cpp
  bool effects(check::InstId id);
  // `build` of the operands `ids`, each lowered by `one`, or, when two or
  // more have effects, of locals computed in order in a lambda.
  Cpp sequence(llvm::ArrayRef<check::InstId> ids,
               llvm::ArrayRef<const check::Type*> wants,
               const check::Type* result,
               const std::function<std::string(std::size_t)>& one,
               const std::function<Cpp(std::vector<std::string>)>& build);

  // ---- lower_pattern.cpp
  void match(const check::Inst& inst, Sink sink);
  // The test of `pattern` against the value at `path`; empty when it
  // matches every value.
  std::string test(check::InstId pattern, const std::string& path);
  void bind(check::InstId pattern, const std::string& path);

  // ---- lower_body.cpp
  [[nodiscard]] const check::Inst& inst(check::InstId id) const {
    return program_.bodies[id];
  }
  [[nodiscard]] const check::Type* type(check::TypeId id) const {
    return program_.types.byId(id);
  }
  [[nodiscard]] const check::Type* typeOf(check::InstId id) const {
    return type(inst(id).type);
  }
  [[nodiscard]] llvm::ArrayRef<check::InstId> list(check::InstListId at) const {
    return program_.bodies.list(at);
  }
  // A fresh C++ name for a local, unique within the body's function.
  std::string fresh(llvm::StringRef name);
  std::string slotName(check::SlotId slot);
  // `const auto <name> = ` for a `let` or a pattern binding; one the body
  // never reads is [[maybe_unused]], as Herald lets it be.
  std::string declareSlot(check::SlotId slot);
  // `const auto <name> = ` for a local of the lowering's own.
  std::string declareLocal(const std::string& name);
  // `text` with the locals the body does not read `[[maybe_unused]]`: the
  // C++ as written decides, not a guess from the IR (a match whose first
  // arm takes every value reads nothing of its scrutinee, a binding may be
  // read only inside a test).
  [[nodiscard]] std::string finish(const std::string& text) const;
  [[nodiscard]] std::string keyName() const;

  const check::Program& program_;
  Spelling& spelling_;
  const check::Body& body_;
  std::string out_;
  unsigned indent_ = 0;
  // Store initialisers and event field defaults may stand outside any
  // function, where a lambda cannot capture.
  bool nonLocal_ = false;
  unsigned lambdaDepth_ = 0;
  std::set<std::string> names_;
  std::vector<std::string> slots_;
  // The locals declared so far, by the index their mark holds.
  std::vector<std::string> locals_;
  std::vector<std::uint8_t> effects_;  // per inst: 0 unknown, 1 no, 2 yes
};

}  // namespace herald::codegen::lower
