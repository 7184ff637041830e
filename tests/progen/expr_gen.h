// Well-typed Herald expressions, statements and patterns of a requested
// type, over the names a scope holds. Every production respects a rule of
// the language reference (lang/README.md, sections 5 and 8): constant
// arithmetic stays far from the Int range, `/` and `%` divide by non-zero
// constants, matches are exhaustive and no arm is covered by the arms above
// it, refined values are constants inside their bounds, and opaque values
// are built only in their own context.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "bench/gen/rng.h"
#include "tests/progen/types.h"

namespace herald::progen {

struct Var {
  std::string name;
  TypeP type;
};

struct Function {
  std::string callee;  // as spelled at the call: `score2`, `Id0.of`
  std::vector<Field> params;
  TypeP result;
};

// What a body may use besides its variables.
struct Scope {
  int context = 0;
  std::vector<Var> vars;
  std::vector<Function> functions;
  bool clock = false;   // Clock given
  bool random = false;  // Random given
  // Named capability dependencies: `Fx` and the operations it offers.
  std::vector<std::pair<std::string, std::vector<Function>>> capabilities;
};

class ExprGen {
 public:
  // `spell(type, context)` writes a declared type's name as seen from the
  // context (bare, through an alias or fully qualified).
  using Speller = std::function<std::string(const Type&, int)>;

  ExprGen(bench::Rng& rng, Speller spell)
      : rng_(rng), spell_(std::move(spell)) {}

  [[nodiscard]] std::string typeName(const Type& t, int context) const;

  // An expression of type `t`; nested constructs are indented from `ind`.
  std::string expr(Scope& scope, const TypeP& t, int depth, int ind);
  // A constant of type `t` (an event field default): literals, constant
  // arithmetic, variants, options, lists, maps and records of constants.
  std::string constant(const TypeP& t, int context, int depth);
  // A value of `t` can be written in this scope (a foreign opaque type only
  // through a variable).
  [[nodiscard]] bool canMake(const Scope& scope, const Type& t) const;
  // `match` with arms of type `t` over a scrutinee the scope offers.
  std::string match(Scope& scope, const TypeP& t, int depth, int ind);
  // A pattern over the fields of an event for `from Events(E {...})`, or an
  // empty string when no field is constrained.
  std::string subscriptionPattern(const Type& event, int context);

  std::string freshName(const char* stem);
  [[nodiscard]] static std::string indent(int ind);
  std::string stringLiteral();
  long long smallInt();

 private:
  std::string leaf(Scope& scope, const TypeP& t, int ind);
  std::string intExpr(Scope& scope, int depth, int ind);
  std::string floatExpr(Scope& scope, int depth, int ind);
  std::string floatLiteral();
  std::string boolExpr(Scope& scope, int depth, int ind);
  std::string stringExpr(Scope& scope, int depth, int ind);
  std::string durationExpr(Scope& scope, int depth, int ind);
  std::string instantExpr(Scope& scope, int depth, int ind);
  std::string optionExpr(Scope& scope, const TypeP& t, int depth, int ind);
  std::string listExpr(Scope& scope, const TypeP& t, int depth, int ind);
  std::string mapExpr(Scope& scope, const TypeP& t, int depth, int ind);
  std::string recordExpr(Scope& scope, const TypeP& t, int depth, int ind);
  std::string sumExpr(Scope& scope, const TypeP& t, int depth, int ind);
  std::string opaqueExpr(Scope& scope, const TypeP& t, int depth, int ind);
  std::string refinedLiteral(const Type& t);
  std::string ifExpr(Scope& scope, const TypeP& t, int depth, int ind);
  std::string blockExpr(Scope& scope, const TypeP& t, int depth, int ind);
  std::string durationLiteral();
  std::string interpolation(Scope& scope, int ind);
  // A variable, field of a record variable, or call whose type fits `t`.
  std::vector<std::string> reachable(Scope& scope, const Type& t, int depth,
                                     int ind);
  std::string valuePattern(const Type& t, int context, bool refine,
                           Scope* binds);
  std::string payloadPattern(const Variant& v, const Type& sum, int context,
                             bool refine, Scope* binds);
  // Some value of `t` does not match a wildcard-free pattern of it, so a
  // pattern that constrains it leaves values to later arms.
  [[nodiscard]] static bool refutable(const Type& t, int context);
  [[nodiscard]] static bool refutablePayload(const Variant& v, int context) {
    for (const Field& f : v.fields)
      if (refutable(*f.type, context)) return true;
    return false;
  }
  std::string variantName(const Variant& v, const Type& sum, int context);

  bench::Rng& rng_;
  Speller spell_;
  int fresh_ = 0;
};

}  // namespace herald::progen
