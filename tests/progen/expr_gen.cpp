#include "tests/progen/expr_gen.h"

#include <cctype>
#include <string_view>

#include <fmt/format.h>

namespace herald::progen {

namespace {

const char* const kWords[] = {"alpha", "beta",  "gamma", "delta",
                              "omega", "kappa", "sigma", "zeta"};

bool isScalar(Kind k) {
  switch (k) {
    case Kind::Float:
    case Kind::Int:
    case Kind::Bool:
    case Kind::String:
    case Kind::Duration:
      return true;
    case Kind::Instant:
    case Kind::Option:
    case Kind::List:
    case Kind::Map:
    case Kind::Record:
    case Kind::Sum:
    case Kind::Opaque:
    case Kind::Refined:
      return false;
  }
  return false;
}

// An operand or a method's receiver: parenthesised unless it is one token
// or a chain of names, so precedence never changes what it means.
std::string atom(const std::string& e) {
  bool simple = !e.empty();
  for (char ch : e)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' ||
          ch == '.'))
      simple = false;
  return simple ? e : "(" + e + ")";
}

// `e` without the parentheses around all of it (`((a.x))` is `a.x`), so
// that two spellings of one expression compare equal.
std::string_view bare(std::string_view e) {
  while (e.size() >= 2 && e.front() == '(' && e.back() == ')') {
    int depth = 0;
    std::size_t k = 0;
    for (; k + 1 < e.size(); ++k) {
      if (e[k] == '(') ++depth;
      if (e[k] == ')' && --depth == 0) break;
    }
    if (k + 1 < e.size()) break;  // the first '(' closes before the end
    e = e.substr(1, e.size() - 2);
  }
  return e;
}

}  // namespace

bool ExprGen::refutable(const Type& t, int context) {
  switch (t.kind) {
    case Kind::Int:
    case Kind::Refined:
    case Kind::Bool:
    case Kind::String:
    case Kind::Option:
    case Kind::Sum:
      return true;
    case Kind::Opaque:
      return t.context == context;
    case Kind::Record:
      for (const Field& f : t.fields)
        if (refutable(*f.type, context)) return true;
      return false;
    case Kind::Float:
    case Kind::Duration:
    case Kind::Instant:
    case Kind::List:
    case Kind::Map:
      return false;
  }
  return false;
}

std::string ExprGen::indent(int ind) {
  return std::string(static_cast<std::size_t>(ind) * 2, ' ');
}

std::string ExprGen::freshName(const char* stem) {
  return fmt::format("{}{}", stem, fresh_++);
}

long long ExprGen::smallInt() {
  switch (rng_.range(0, 5)) {
    case 0:
      return 0;
    case 1:
      return 1;
    case 2:
      return rng_.range(2, 9);
    case 3:
      return rng_.range(10, 99);
    case 4:
      return 1000;
    default:
      return rng_.range(100, 5000);
  }
}

std::string ExprGen::typeName(const Type& t, int context) const {
  switch (t.kind) {
    case Kind::Int:
      return "Int";
    case Kind::Float:
      return "Float";
    case Kind::Bool:
      return "Bool";
    case Kind::String:
      return "String";
    case Kind::Duration:
      return "Duration";
    case Kind::Instant:
      return "Instant";
    case Kind::Option:
      return "Option[" + typeName(*t.args[0], context) + "]";
    case Kind::List:
      return "List[" + typeName(*t.args[0], context) + "]";
    case Kind::Map:
      return "Map[" + typeName(*t.args[0], context) + ", " +
             typeName(*t.args[1], context) + "]";
    case Kind::Record:
    case Kind::Sum:
    case Kind::Opaque:
    case Kind::Refined:
      return spell_(t, context);
  }
  return "Int";
}

std::string ExprGen::stringLiteral() {
  switch (rng_.range(0, 7)) {
    case 0:
      return "\"\"";
    case 1:
      return "\"tab\\there\"";
    case 2:
      return "\"say \\\"hi\\\"\"";
    case 3:
      return "\"smile \\u{1F600}\"";
    case 4:
      return "\"back\\\\slash\"";
    case 5:
      return "\"line\\nbreak\"";
    default:
      return fmt::format("\"{}\"", kWords[rng_.range(0, 7)]);
  }
}

std::string ExprGen::floatLiteral() {
  static const char* const kFloats[] = {"0.5", "1.25", "3.0", "2.50",
                                        "100.125"};
  return kFloats[rng_.range(0, 4)];
}

std::string ExprGen::floatExpr(Scope& scope, int depth, int ind) {
  static const TypeP kFloat = builtin(Kind::Float);
  if (depth <= 0) return leaf(scope, kFloat, ind);
  const int d = depth - 1;
  static const char* const kOps[] = {" + ", " - ", " * "};
  switch (rng_.range(0, 4)) {
    case 0:
      return atom(expr(scope, kFloat, d, ind)) + kOps[rng_.range(0, 2)] +
             atom(expr(scope, kFloat, d, ind));
    case 1:
      return atom(expr(scope, kFloat, d, ind)) + " / 2.0";
    case 2:
      return "-(" + expr(scope, kFloat, d, ind) + ")";
    default:
      return leaf(scope, kFloat, ind);
  }
}

std::string ExprGen::durationLiteral() {
  switch (rng_.range(0, 6)) {
    case 0:
      return fmt::format("{}.ms", rng_.range(1, 999));
    case 1:
      return rng_.chance(50) ? "1.second"
                             : fmt::format("{}.seconds", rng_.range(2, 90));
    case 2:
      return rng_.chance(50) ? "1.minute"
                             : fmt::format("{}.minutes", rng_.range(2, 90));
    case 3:
      return rng_.chance(50) ? "1.hour"
                             : fmt::format("{}.hours", rng_.range(2, 48));
    case 4:
      return rng_.chance(50) ? "1.day"
                             : fmt::format("{}.days", rng_.range(2, 30));
    case 5:
      return "1_500.ms";
    default:
      return "30.seconds";
  }
}

std::string ExprGen::refinedLiteral(const Type& t) {
  return std::to_string(
      rng_.range(static_cast<int>(t.low), static_cast<int>(t.high)));
}

bool ExprGen::canMake(const Scope& scope, const Type& t) const {
  switch (t.kind) {
    case Kind::Opaque:
      if (t.context == scope.context) return true;
      for (const Var& v : scope.vars)
        if (sameType(*v.type, t)) return true;
      return false;
    case Kind::Record:
      for (const Field& f : t.fields)
        if (!canMake(scope, *f.type)) return false;
      return true;
    case Kind::Instant:
      if (scope.clock) return true;
      for (const Var& v : scope.vars)
        if (sameType(*v.type, t)) return true;
      return false;
    case Kind::Sum:
      // A nullary variant always exists (the generator declares one first).
      return true;
    case Kind::Option:
    case Kind::List:
    case Kind::Map:
    case Kind::Int:
    case Kind::Float:
    case Kind::Bool:
    case Kind::String:
    case Kind::Duration:
    case Kind::Refined:
      return true;
  }
  return true;
}

std::vector<std::string> ExprGen::reachable(Scope& scope, const Type& t,
                                            int depth, int ind) {
  std::vector<std::string> out;
  for (const Var& v : scope.vars) {
    if (fits(*v.type, t)) out.push_back(v.name);
    if (v.type->kind == Kind::Record)
      for (const Field& f : v.type->fields)
        if (fits(*f.type, t)) out.push_back(v.name + "." + f.name);
  }
  if (depth <= 0) return out;
  auto callOf = [&](const std::string& callee, const Function& fn) {
    for (const Field& p : fn.params)
      if (!canMake(scope, *p.type)) return;
    std::string text = callee + "(";
    bool labels = rng_.chance(40);
    for (std::size_t i = 0; i < fn.params.size(); ++i) {
      if (i != 0) text += ", ";
      if (labels) text += fn.params[i].name + ": ";
      text += expr(scope, fn.params[i].type, depth - 1, ind);
    }
    out.push_back(text + ")");
  };
  for (const Function& fn : scope.functions)
    if (fits(*fn.result, t) && rng_.chance(60)) callOf(fn.callee, fn);
  for (const auto& [name, ops] : scope.capabilities)
    for (const Function& op : ops)
      if (fits(*op.result, t) && rng_.chance(60))
        callOf(name + "." + op.callee, op);
  return out;
}

std::string ExprGen::leaf(Scope& scope, const TypeP& t, int ind) {
  std::vector<std::string> names = reachable(scope, *t, 0, ind);
  if (!names.empty() && rng_.chance(60)) return rng_.pick(names);
  switch (t->kind) {
    case Kind::Int:
      return rng_.chance(15) ? "1_000" : std::to_string(smallInt());
    case Kind::Bool:
      return rng_.chance(50) ? "true" : "false";
    case Kind::Float:
      return floatLiteral();
    case Kind::String:
      return stringLiteral();
    case Kind::Duration:
      return durationLiteral();
    case Kind::Refined:
      return refinedLiteral(*t);
    case Kind::Instant:
    case Kind::Option:
    case Kind::List:
    case Kind::Map:
    case Kind::Record:
    case Kind::Sum:
    case Kind::Opaque:
      return expr(scope, t, 0, ind);
  }
  return "0";
}

std::string ExprGen::expr(Scope& scope, const TypeP& t, int depth, int ind) {
  if (depth > 0 && rng_.chance(12)) {
    if (rng_.chance(50)) return ifExpr(scope, t, depth, ind);
    return match(scope, t, depth, ind);
  }
  if (depth > 0 && rng_.chance(3)) return blockExpr(scope, t, depth, ind);
  if (depth > 0 && rng_.chance(25)) {
    std::vector<std::string> names = reachable(scope, *t, depth, ind);
    if (!names.empty()) return rng_.pick(names);
  }
  switch (t->kind) {
    case Kind::Int:
      return intExpr(scope, depth, ind);
    case Kind::Float:
      return floatExpr(scope, depth, ind);
    case Kind::Bool:
      return boolExpr(scope, depth, ind);
    case Kind::String:
      return stringExpr(scope, depth, ind);
    case Kind::Duration:
      return durationExpr(scope, depth, ind);
    case Kind::Instant:
      return instantExpr(scope, depth, ind);
    case Kind::Option:
      return optionExpr(scope, t, depth, ind);
    case Kind::List:
      return listExpr(scope, t, depth, ind);
    case Kind::Map:
      return mapExpr(scope, t, depth, ind);
    case Kind::Record:
      return recordExpr(scope, t, depth, ind);
    case Kind::Sum:
      return sumExpr(scope, t, depth, ind);
    case Kind::Opaque:
      return opaqueExpr(scope, t, depth, ind);
    case Kind::Refined: {
      std::vector<std::string> names;
      for (const Var& v : scope.vars)
        if (sameType(*v.type, *t)) names.push_back(v.name);
      if (!names.empty() && rng_.chance(50)) return rng_.pick(names);
      return refinedLiteral(*t);
    }
  }
  return "0";
}

std::string ExprGen::intExpr(Scope& scope, int depth, int ind) {
  static const TypeP kInt = builtin(Kind::Int);
  static const TypeP kString = builtin(Kind::String);
  if (depth <= 0) return leaf(scope, kInt, ind);
  const int d = depth - 1;
  switch (rng_.range(0, 11)) {
    case 0:
      return atom(expr(scope, kInt, d, ind)) + " + " +
             atom(expr(scope, kInt, d, ind));
    case 1:
      return atom(expr(scope, kInt, d, ind)) + " - " +
             atom(expr(scope, kInt, d, ind));
    case 2:
      return "(" + expr(scope, kInt, d, ind) + ") * " +
             std::to_string(rng_.range(2, 9));
    case 3:
      return "(" + expr(scope, kInt, d, ind) + ")" +
             (rng_.chance(50) ? " / " : " % ") +
             std::to_string(rng_.range(1, 9));
    case 4:
      return "-(" + expr(scope, kInt, d, ind) + ")";
    case 5:
      return atom(stringExpr(scope, d, ind)) + ".len()";
    case 6: {
      // A collection's length: a list or map variable, or a literal list.
      for (const Var& v : scope.vars)
        if ((v.type->kind == Kind::List || v.type->kind == Kind::Map) &&
            rng_.chance(50))
          return v.name + ".len()";
      return "[" + expr(scope, kString, d, ind) + "].len()";
    }
    case 7: {
      for (const Var& v : scope.vars)
        if (v.type->kind == Kind::Option && v.type->args[0]->kind == Kind::Int)
          return v.name + ".getOr(" + expr(scope, kInt, d, ind) + ")";
      for (const Var& v : scope.vars)
        if (v.type->kind == Kind::Map && v.type->args[1]->kind == Kind::Int &&
            canMake(scope, *v.type->args[0]))
          return v.name + ".get(" + expr(scope, v.type->args[0], d, ind) +
                 ").getOr(0)";
      return "Some(0).getOr(" + expr(scope, kInt, d, ind) + ")";
    }
    case 8:
      if (scope.random) return "Random.int(1, 6)";
      return leaf(scope, kInt, ind);
    case 9:
      if (rng_.chance(10))
        return "fail(" + stringExpr(scope, d, ind) + ").len()";
      return "(" + expr(scope, kInt, d, ind) + ")";
    default:
      return leaf(scope, kInt, ind);
  }
}

std::string ExprGen::boolExpr(Scope& scope, int depth, int ind) {
  static const TypeP kInt = builtin(Kind::Int);
  static const TypeP kBool = builtin(Kind::Bool);
  static const TypeP kString = builtin(Kind::String);
  static const TypeP kDuration = builtin(Kind::Duration);
  if (depth <= 0) return leaf(scope, kBool, ind);
  const int d = depth - 1;
  static const char* const kCompare[] = {"<", "<=", ">", ">=", "==", "!="};
  // A value compared with itself is left out: the C++ compilers warn about
  // the self-comparison it lowers to (-Wtautological-compare), a gap of
  // code generation reported on its own (README.md, "Findings").
  auto compare = [&](const std::string& lhs, const std::string& op,
                     const std::string& rhs) {
    if (bare(lhs) == bare(rhs)) return leaf(scope, kBool, ind);
    return lhs + " " + op + " " + rhs;
  };
  switch (rng_.range(0, 10)) {
    case 0:
      return compare(atom(expr(scope, kInt, d, ind)),
                     kCompare[rng_.range(0, 5)],
                     atom(expr(scope, kInt, d, ind)));
    case 1:
      return compare(atom(expr(scope, kString, d, ind)),
                     kCompare[rng_.range(0, 5)],
                     atom(expr(scope, kString, d, ind)));
    case 8: {
      static const TypeP kFloat = builtin(Kind::Float);
      return compare(
          atom(expr(scope, kFloat, d, ind)),
          rng_.chance(50) ? "<" : ">=", atom(expr(scope, kFloat, d, ind)));
    }
    case 2:
      return compare(atom(expr(scope, kDuration, d, ind)),
                     kCompare[rng_.range(0, 5)],
                     atom(expr(scope, kDuration, d, ind)));
    case 3:
      return "!(" + expr(scope, kBool, d, ind) + ")";
    case 4:
      return "(" + expr(scope, kBool, d, ind) + ") && (" +
             expr(scope, kBool, d, ind) + ")";
    case 5:
      return "(" + expr(scope, kBool, d, ind) + ") || (" +
             expr(scope, kBool, d, ind) + ")";
    case 6:
      return atom(expr(scope, kString, d, ind)) +
             (rng_.chance(50) ? ".contains(" : ".startsWith(") +
             expr(scope, kString, d, ind) + ")";
    case 7: {
      // Equality of two values of a declared or collection type.
      std::vector<const Var*> candidates;
      for (const Var& v : scope.vars)
        if (!isScalar(v.type->kind) && !v.type->event &&
            canMake(scope, *v.type))
          candidates.push_back(&v);
      if (candidates.empty()) return leaf(scope, kBool, ind);
      const Var* v = rng_.pick(candidates);
      if (v->type->kind == Kind::Option && rng_.chance(50))
        return v->name + ".isSome()";
      if (v->type->kind == Kind::List && canMake(scope, *v->type->args[0]))
        return v->name + ".contains(" + expr(scope, v->type->args[0], d, ind) +
               ")";
      if (v->type->kind == Kind::Instant)
        return compare(v->name, kCompare[rng_.range(0, 5)],
                       atom(expr(scope, v->type, d, ind)));
      return compare(v->name, rng_.chance(50) ? "==" : "!=",
                     atom(expr(scope, v->type, d, ind)));
    }
    default:
      return leaf(scope, kBool, ind);
  }
}

std::string ExprGen::interpolation(Scope& scope, int ind) {
  static const TypeP kInt = builtin(Kind::Int);
  std::string text = "\"";
  text += kWords[rng_.range(0, 7)];
  const int parts = rng_.range(1, 3);
  for (int i = 0; i < parts; ++i) {
    text += " \\(";
    if (!scope.vars.empty() && rng_.chance(60)) {
      const Var& v = rng_.pick(scope.vars);
      text += v.name;
      if (v.type->kind == Kind::Record && !v.type->fields.empty() &&
          rng_.chance(40))
        text += "." + rng_.pick(v.type->fields).name;
    } else {
      // A leaf: an interpolation stays on its string's line.
      text += expr(scope, kInt, 0, ind);
    }
    text += ")";
    if (rng_.chance(30))
      text += " (nested \\(\"in \\(" + std::to_string(smallInt()) + ")\"))";
  }
  return text + "\"";
}

std::string ExprGen::stringExpr(Scope& scope, int depth, int ind) {
  static const TypeP kString = builtin(Kind::String);
  if (depth <= 0) return leaf(scope, kString, ind);
  const int d = depth - 1;
  switch (rng_.range(0, 8)) {
    case 0:
    case 1:
      return interpolation(scope, ind);
    case 2:
      return atom(expr(scope, kString, d, ind)) + " + " +
             atom(expr(scope, kString, d, ind));
    case 3:
      return "(" + expr(scope, kString, d, ind) + ")" +
             (rng_.chance(50) ? ".upper()" : ".lower()");
    case 4:
      return "(" + expr(scope, kString, d, ind) + ").concat(" +
             expr(scope, kString, d, ind) + ")";
    case 5: {
      for (const Var& v : scope.vars) {
        if (v.type->kind == Kind::Option &&
            v.type->args[0]->kind == Kind::String)
          return v.name + ".getOr(" + expr(scope, kString, d, ind) + ")";
        if (v.type->kind == Kind::Opaque && v.type->context == scope.context &&
            rng_.chance(60))
          return v.name + ".raw";
      }
      return leaf(scope, kString, ind);
    }
    case 6:
      if (scope.random)
        return rng_.chance(50) ? "Random.uuid" : "Random.uuid()";
      return leaf(scope, kString, ind);
    default:
      return leaf(scope, kString, ind);
  }
}

std::string ExprGen::durationExpr(Scope& scope, int depth, int ind) {
  static const TypeP kDuration = builtin(Kind::Duration);
  if (depth <= 0) return leaf(scope, kDuration, ind);
  const int d = depth - 1;
  switch (rng_.range(0, 5)) {
    case 0:
      return atom(expr(scope, kDuration, d, ind)) + " + " +
             atom(expr(scope, kDuration, d, ind));
    case 1:
      return atom(expr(scope, kDuration, d, ind)) + " - " +
             atom(expr(scope, kDuration, d, ind));
    case 2:
      return "-(" + expr(scope, kDuration, d, ind) + ")";
    case 3: {
      for (const Var& v : scope.vars)
        if (v.type->kind == Kind::Instant)
          return v.name + " - " + atom(instantExpr(scope, d, ind));
      return leaf(scope, kDuration, ind);
    }
    default:
      return leaf(scope, kDuration, ind);
  }
}

std::string ExprGen::instantExpr(Scope& scope, int depth, int ind) {
  static const TypeP kDuration = builtin(Kind::Duration);
  std::vector<std::string> bases;
  for (const Var& v : scope.vars)
    if (v.type->kind == Kind::Instant) bases.push_back(v.name);
  if (scope.clock)
    bases.emplace_back(rng_.chance(50) ? "Clock.now" : "Clock.now()");
  std::string base = rng_.pick(bases);
  if (depth <= 0) return base;
  switch (rng_.range(0, 3)) {
    case 0:
      return base + " + " + atom(durationExpr(scope, depth - 1, ind));
    case 1:
      return base + " - " + atom(durationExpr(scope, depth - 1, ind));
    case 2:
      return durationLiteral() + " + " + base;
    default:
      return base;
  }
}

std::string ExprGen::optionExpr(Scope& scope, const TypeP& t, int depth,
                                int ind) {
  const TypeP& inner = t->args[0];
  if (depth > 0 && rng_.chance(30)) {
    for (const Var& v : scope.vars)
      if (v.type->kind == Kind::Map && sameType(*v.type->args[1], *inner) &&
          canMake(scope, *v.type->args[0]))
        return v.name + ".get(" + expr(scope, v.type->args[0], depth - 1, ind) +
               ")";
  }
  std::vector<std::string> names = reachable(scope, *t, 0, ind);
  if (!names.empty() && rng_.chance(40)) return rng_.pick(names);
  if (!canMake(scope, *inner) || rng_.chance(30)) return "None";
  return "Some(" + expr(scope, inner, depth - 1, ind) + ")";
}

std::string ExprGen::listExpr(Scope& scope, const TypeP& t, int depth,
                              int ind) {
  const TypeP& inner = t->args[0];
  std::vector<std::string> names = reachable(scope, *t, 0, ind);
  if (!names.empty() && rng_.chance(50)) {
    std::string base = rng_.pick(names);
    if (depth > 0 && canMake(scope, *inner) && rng_.chance(60))
      return base + ".append(" + expr(scope, inner, depth - 1, ind) + ")";
    return base;
  }
  if (!canMake(scope, *inner) || rng_.chance(25)) return "[]";
  std::string text = "[";
  const int n = rng_.range(1, 3);
  for (int i = 0; i < n; ++i) {
    if (i != 0) text += ", ";
    text += expr(scope, inner, depth - 1, ind);
  }
  return text + "]";
}

std::string ExprGen::mapExpr(Scope& scope, const TypeP& t, int depth, int ind) {
  const TypeP& key = t->args[0];
  const TypeP& value = t->args[1];
  std::vector<std::string> names = reachable(scope, *t, 0, ind);
  if (!names.empty() && rng_.chance(50)) {
    std::string base = rng_.pick(names);
    if (depth > 0 && rng_.chance(60)) {
      if (rng_.chance(60))
        return base + ".put(" + expr(scope, key, depth - 1, ind) + ", " +
               expr(scope, value, depth - 1, ind) + ")";
      return base + ".remove(" + expr(scope, key, depth - 1, ind) + ")";
    }
    return base;
  }
  if (rng_.chance(30) || key->kind != Kind::String) return "[:]";
  // Constant keys must differ (E0323): distinct words.
  std::string text = "[";
  const int n = rng_.range(1, 3);
  for (int i = 0; i < n; ++i) {
    if (i != 0) text += ", ";
    text += fmt::format("\"k{}\": {}", i, expr(scope, value, depth - 1, ind));
  }
  return text + "]";
}

std::string ExprGen::recordExpr(Scope& scope, const TypeP& t, int depth,
                                int ind) {
  std::vector<std::string> names = reachable(scope, *t, depth, ind);
  if (!names.empty() && rng_.chance(50)) return rng_.pick(names);
  std::vector<Field> fields = t->fields;
  // Field order is free in a literal.
  if (rng_.chance(40)) rng_.shuffle(fields);
  std::string text = typeName(*t, scope.context) + " { ";
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i != 0) text += ", ";
    text += fields[i].name + ": " + expr(scope, fields[i].type, depth - 1, ind);
  }
  return text + " }";
}

std::string ExprGen::variantName(const Variant& v, const Type& sum,
                                 int context) {
  if (rng_.chance(30)) return typeName(sum, context) + "." + v.name;
  return v.name;
}

std::string ExprGen::sumExpr(Scope& scope, const TypeP& t, int depth, int ind) {
  std::vector<std::string> names = reachable(scope, *t, depth, ind);
  if (!names.empty() && rng_.chance(40)) return rng_.pick(names);
  const Variant& v = depth <= 0 ? t->variants[0] : rng_.pick(t->variants);
  std::string text = variantName(v, *t, scope.context);
  if (v.fields.empty()) return text;
  bool labels = rng_.chance(50);
  text += "(";
  for (std::size_t i = 0; i < v.fields.size(); ++i) {
    if (i != 0) text += ", ";
    if (labels) text += v.fields[i].name + ": ";
    text += expr(scope, v.fields[i].type, depth - 1, ind);
  }
  return text + ")";
}

std::string ExprGen::opaqueExpr(Scope& scope, const TypeP& t, int depth,
                                int ind) {
  static const TypeP kString = builtin(Kind::String);
  std::vector<std::string> names = reachable(scope, *t, depth, ind);
  if (t->context != scope.context || (!names.empty() && rng_.chance(50)))
    return rng_.pick(names);
  // Its refinement is `len(self) > 0`: a constant must not be empty.
  if (depth <= 0 || rng_.chance(50))
    return typeName(*t, scope.context) + "(\"" + kWords[rng_.range(0, 7)] +
           "\")";
  return typeName(*t, scope.context) + "(\"id-\" + " +
         expr(scope, kString, depth - 1, ind) + ")";
}

std::string ExprGen::ifExpr(Scope& scope, const TypeP& t, int depth, int ind) {
  static const TypeP kBool = builtin(Kind::Bool);
  const std::string in = indent(ind + 1);
  std::string text = "if " + boolExpr(scope, depth - 1, ind) + " {\n" + in +
                     expr(scope, t, depth - 1, ind + 1) + "\n" + indent(ind) +
                     "}";
  if (rng_.chance(30))
    text += " else if " + expr(scope, kBool, depth - 1, ind) + " {\n" + in +
            expr(scope, t, depth - 1, ind + 1) + "\n" + indent(ind) + "}";
  std::string otherwise = rng_.chance(8)
                              ? "fail(" + interpolation(scope, ind) + ")"
                              : expr(scope, t, depth - 1, ind + 1);
  return text + " else {\n" + in + otherwise + "\n" + indent(ind) + "}";
}

std::string ExprGen::blockExpr(Scope& scope, const TypeP& t, int depth,
                               int ind) {
  static const TypeP kInt = builtin(Kind::Int);
  static const TypeP kString = builtin(Kind::String);
  // Its names live in a scope of their own: the caller may hold references
  // into `scope`.
  Scope inner = scope;
  const std::string in = indent(ind + 1);
  std::string text = "{\n";
  const int lets = rng_.range(1, 2);
  for (int i = 0; i < lets; ++i) {
    TypeP type = rng_.chance(50) ? kInt : kString;
    std::string name = freshName("b");
    text += fmt::format("{}let {}: {} = {}\n", in, name,
                        typeName(*type, scope.context),
                        expr(inner, type, depth - 1, ind + 1));
    inner.vars.push_back({name, type});
  }
  text += in + expr(inner, t, depth - 1, ind + 1) + "\n" + indent(ind) + "}";
  return text;
}

std::string ExprGen::constant(const TypeP& t, int context, int depth) {
  switch (t->kind) {
    case Kind::Int:
      if (depth > 0 && rng_.chance(40)) {
        switch (rng_.range(0, 2)) {
          case 0:
            return atom(constant(t, context, depth - 1)) + " + " +
                   atom(constant(t, context, depth - 1));
          case 1:
            return "(" + constant(t, context, depth - 1) + ") * " +
                   std::to_string(rng_.range(2, 9));
          default:
            return "-(" + constant(t, context, depth - 1) + ")";
        }
      }
      return rng_.chance(20) ? "21_000" : std::to_string(smallInt());
    case Kind::Float:
      return floatLiteral();
    case Kind::Bool:
      return rng_.chance(50) ? "true" : "false";
    case Kind::String:
      return stringLiteral();
    case Kind::Duration:
      if (depth > 0 && rng_.chance(30))
        return durationLiteral() + " + " + durationLiteral();
      return durationLiteral();
    case Kind::Instant:
      return "0";  // never asked: an Instant has no constant
    case Kind::Option:
      if (rng_.chance(50)) return "None";
      return "Some(" + constant(t->args[0], context, depth - 1) + ")";
    case Kind::List: {
      if (rng_.chance(30)) return "[]";
      std::string text = "[";
      const int n = rng_.range(1, 3);
      for (int i = 0; i < n; ++i)
        text += (i == 0 ? "" : ", ") + constant(t->args[0], context, depth - 1);
      return text + "]";
    }
    case Kind::Map: {
      if (rng_.chance(30)) return "[:]";
      std::string text = "[";
      const int n = rng_.range(1, 3);
      for (int i = 0; i < n; ++i)
        text += fmt::format("{}\"k{}\": {}", i == 0 ? "" : ", ", i,
                            constant(t->args[1], context, depth - 1));
      return text + "]";
    }
    case Kind::Record: {
      std::string text = typeName(*t, context) + " { ";
      for (std::size_t i = 0; i < t->fields.size(); ++i)
        text += (i == 0 ? "" : ", ") + t->fields[i].name + ": " +
                constant(t->fields[i].type, context, depth - 1);
      return text + " }";
    }
    case Kind::Sum: {
      const Variant& v = depth <= 0 ? t->variants[0] : rng_.pick(t->variants);
      std::string text = variantName(v, *t, context);
      if (v.fields.empty()) return text;
      text += "(";
      for (std::size_t i = 0; i < v.fields.size(); ++i)
        text += (i == 0 ? "" : ", ") +
                constant(v.fields[i].type, context, depth - 1);
      return text + ")";
    }
    case Kind::Opaque:
      return typeName(*t, context) + "(\"" + kWords[rng_.range(0, 7)] + "\")";
    case Kind::Refined:
      return refinedLiteral(*t);
  }
  return "0";
}

// --- patterns -------------------------------------------------------------

std::string ExprGen::valuePattern(const Type& t, int context, bool refine,
                                  Scope* binds) {
  auto bindOr = [&](const char* wildcard) -> std::string {
    if (binds != nullptr && rng_.chance(50)) {
      std::string name = freshName("p");
      auto type = std::make_shared<Type>(t);
      binds->vars.push_back({name, type});
      return name;
    }
    return wildcard;
  };
  if (!refine) return bindOr("_");
  switch (t.kind) {
    case Kind::Int: {
      const int low = rng_.range(0, 50);
      switch (rng_.range(0, 3)) {
        case 0:
          return std::to_string(low);
        case 1:
          return fmt::format("{}..{}", low, low + rng_.range(1, 20));
        case 2:
          return rng_.chance(50) ? fmt::format("{}..", low)
                                 : fmt::format("..{}", low);
        default:
          return fmt::format("{} | {}", low, low + 1);
      }
    }
    case Kind::Refined: {
      const int low =
          rng_.range(static_cast<int>(t.low), static_cast<int>(t.high));
      if (rng_.chance(50)) return std::to_string(low);
      return fmt::format("{}..{}", low,
                         rng_.range(low, static_cast<int>(t.high)));
    }
    case Kind::Bool:
      return rng_.chance(50) ? "true" : "false";
    case Kind::String:
      return fmt::format("\"{}\"", kWords[rng_.range(0, 7)]);
    case Kind::Option:
      if (rng_.chance(40)) return "None";
      if (rng_.chance(20)) return "Some(..)";
      return "Some(" +
             valuePattern(*t.args[0], context, rng_.chance(40), nullptr) + ")";
    case Kind::Record: {
      std::vector<Field> candidates;
      for (const Field& f : t.fields)
        if (refutable(*f.type, context)) candidates.push_back(f);
      if (candidates.empty()) return "_";
      const Field& f = rng_.pick(candidates);
      return "{ " + f.name + ": " +
             valuePattern(*f.type, context, true, nullptr) + ", .. }";
    }
    case Kind::Sum: {
      const Variant& v = rng_.pick(t.variants);
      if (v.fields.empty()) return variantName(v, t, context);
      return payloadPattern(v, t, context,
                            refutablePayload(v, context) && rng_.chance(50),
                            nullptr);
    }
    case Kind::Opaque:
      if (t.context == context)
        return fmt::format("\"{}\"", kWords[rng_.range(0, 7)]);
      return "_";
    case Kind::Float:
    case Kind::Duration:
    case Kind::Instant:
    case Kind::List:
    case Kind::Map:
      return "_";
  }
  return "_";
}

std::string ExprGen::payloadPattern(const Variant& v, const Type& sum,
                                    int context, bool refine, Scope* binds) {
  std::string text = variantName(v, sum, context) + "(";
  if (!refine && binds == nullptr && rng_.chance(60)) return text + "..)";
  // One field constrained when refining; the others bound or wildcards.
  std::size_t constrained = v.fields.size();
  if (refine) {
    std::vector<std::size_t> candidates;
    for (std::size_t i = 0; i < v.fields.size(); ++i)
      if (refutable(*v.fields[i].type, context)) candidates.push_back(i);
    constrained = rng_.pick(candidates);
  }
  const bool labels = rng_.chance(50);
  const bool rest = rng_.chance(30);
  for (std::size_t i = 0; i < v.fields.size(); ++i) {
    if (rest && i > constrained) {
      text += ", ..";
      break;
    }
    if (i != 0) text += ", ";
    if (labels) text += v.fields[i].name + ": ";
    text += valuePattern(*v.fields[i].type, context, i == constrained, binds);
  }
  return text + ")";
}

std::string ExprGen::match(Scope& scope, const TypeP& t, int depth, int ind) {
  const int d = depth - 1;
  const std::string in = indent(ind + 1);
  std::vector<const Var*> scrutinees;
  for (const Var& v : scope.vars) {
    switch (v.type->kind) {
      case Kind::Int:
      case Kind::String:
      case Kind::Bool:
      case Kind::Option:
      case Kind::Sum:
        scrutinees.push_back(&v);
        break;
      case Kind::Float:
      case Kind::Duration:
      case Kind::Instant:
      case Kind::List:
      case Kind::Map:
      case Kind::Record:
      case Kind::Opaque:
      case Kind::Refined:
        break;
    }
  }
  if (scrutinees.empty()) return expr(scope, t, d, ind);
  const Var scrut = *rng_.pick(scrutinees);
  const Type& st = *scrut.type;
  std::string text = "match " + scrut.name + " {\n";
  auto arm = [&](const std::string& pattern, Scope& armScope) {
    text += in + pattern + " => " + expr(armScope, t, d, ind + 1) +
            (rng_.chance(80) ? ",\n" : "\n");
  };
  auto plainArm = [&](const std::string& pattern) { arm(pattern, scope); };
  auto bindingArm = [&](auto&& makePattern) {
    Scope armScope = scope;
    std::string pattern = makePattern(&armScope);
    arm(pattern, armScope);
  };
  switch (st.kind) {
    case Kind::Int: {
      int low = rng_.range(-5, 5);
      const int literals = rng_.range(0, 2);
      for (int i = 0; i < literals; ++i) {
        plainArm(std::to_string(low));
        low += rng_.range(1, 3);
      }
      if (rng_.chance(50)) {
        plainArm(fmt::format("{}..{}", low, low + rng_.range(1, 4)));
      }
      bindingArm([&](Scope* s) {
        if (rng_.chance(50)) return std::string("_");
        std::string name = freshName("n");
        s->vars.push_back({name, scrut.type});
        return name;
      });
      break;
    }
    case Kind::String:
      plainArm(fmt::format("\"{}\"", kWords[rng_.range(0, 3)]));
      if (rng_.chance(50))
        plainArm(fmt::format("\"{}\" | \"\"", kWords[rng_.range(4, 7)]));
      plainArm("_");
      break;
    case Kind::Bool:
      plainArm("true");
      plainArm(rng_.chance(50) ? "false" : "_");
      break;
    case Kind::Option: {
      const Type& inner = *st.args[0];
      if (refutable(inner, scope.context) && rng_.chance(50))
        plainArm("Some(" + valuePattern(inner, scope.context, true, nullptr) +
                 ")");
      bindingArm([&](Scope* s) {
        return "Some(" + valuePattern(inner, scope.context, false, s) + ")";
      });
      plainArm("None");
      break;
    }
    case Kind::Sum: {
      const std::vector<Variant>& variants = st.variants;
      std::size_t i = 0;
      // Two variants joined by `|` (neither binds).
      if (variants.size() >= 2 && rng_.chance(30)) {
        auto whole = [&](const Variant& v) {
          return v.fields.empty() ? variantName(v, st, scope.context)
                                  : variantName(v, st, scope.context) + "(..)";
        };
        plainArm(whole(variants[0]) + " | " + whole(variants[1]));
        i = 2;
      }
      // The last variants may be left to a final `_`.
      const bool wildcardTail = i < variants.size() && rng_.chance(30);
      const std::size_t end =
          wildcardTail ? variants.size() - 1 : variants.size();
      for (; i < end; ++i) {
        const Variant& v = variants[i];
        if (v.fields.empty()) {
          plainArm(variantName(v, st, scope.context));
          continue;
        }
        if (refutablePayload(v, scope.context) && rng_.chance(50))
          plainArm(payloadPattern(v, st, scope.context, true, nullptr));
        bindingArm([&](Scope* s) {
          return payloadPattern(v, st, scope.context, false, s);
        });
      }
      if (wildcardTail) plainArm("_");
      break;
    }
    case Kind::Float:
    case Kind::Duration:
    case Kind::Instant:
    case Kind::List:
    case Kind::Map:
    case Kind::Record:
    case Kind::Opaque:
    case Kind::Refined:
      plainArm("_");
      break;
  }
  return text + indent(ind) + "}";
}

std::string ExprGen::subscriptionPattern(const Type& event, int context) {
  std::vector<Field> fields;
  for (const Field& f : event.fields) {
    switch (f.type->kind) {
      case Kind::Int:
      case Kind::Refined:
      case Kind::Bool:
      case Kind::String:
      case Kind::Option:
      case Kind::Record:
      case Kind::Sum:
        if (rng_.chance(45)) fields.push_back(f);
        break;
      case Kind::Opaque:
        if (rng_.chance(20)) fields.push_back(f);
        break;
      case Kind::Float:
      case Kind::Duration:
      case Kind::Instant:
      case Kind::List:
      case Kind::Map:
        break;
    }
  }
  if (fields.empty()) return {};
  rng_.shuffle(fields);
  std::string text = "{ ";
  for (const Field& f : fields) {
    text += f.name + ": ";
    std::string p = valuePattern(*f.type, context, true, nullptr);
    if (f.type->kind == Kind::Option && p != "None" && rng_.chance(30))
      p += " | None";
    text += p + ", ";
  }
  return text + ".. }";
}

}  // namespace herald::progen
