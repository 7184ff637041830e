// `match`: a chain of `if`s, one per arm, each testing the arm's pattern
// against the scrutinee and then copying out its bindings. The last arm
// needs no test: the checker proved the match exhaustive, so it is reached
// only when it matches.
#include "codegen/lower_lowerer.h"

namespace herald::codegen::lower {

using check::Inst;
using check::InstId;
using check::InstKind;
using check::Type;
using check::TypeKind;

namespace {

// `path.m`, where `path` may be a dereference.
std::string member(const std::string& path, const std::string& m) {
  if (!path.empty() && path[0] == '*') return "(" + path + ")." + m;
  return path + "." + m;
}

std::string deref(const std::string& path) { return "*" + path; }

std::string conjunction(const std::vector<std::string>& tests) {
  std::string out;
  for (const std::string& t : tests) {
    if (t.empty()) continue;
    if (!out.empty()) out += " && ";
    out += t.find(" || ") != std::string::npos ? "(" + t + ")" : t;
  }
  return out;
}

// A read of a variable, which the tests may repeat without computing
// anything twice.
bool isName(InstKind kind) {
  return kind == InstKind::ParamRef || kind == InstKind::LocalRef ||
         kind == InstKind::StoreRef || kind == InstKind::KeyRef ||
         kind == InstKind::ActorRef;
}

}  // namespace

void Lowerer::match(const Inst& i, Sink sink) {
  const check::Match m = i.as<check::Match>();
  InstId scrutinee = m.scrutinee;
  llvm::ArrayRef<InstId> arms = list(m.arms);
  std::string path;
  if (isName(inst(scrutinee).kind)) {
    path = expr(scrutinee).text;
  } else {
    path = fresh("scrutinee");
    // Computed for its effects even when no arm tests it: a match with one
    // arm, or one whose first arm takes every value.
    line(declareLocal(path) + exact(scrutinee) + ";");
  }
  for (std::size_t k = 0; k < arms.size(); ++k) {
    const check::MatchArm arm = inst(arms[k]).as<check::MatchArm>();
    std::string cond =
        k + 1 < arms.size() ? test(arm.pattern, path) : std::string();
    if (k == 0)
      line(cond.empty() ? "{" : "if (" + cond + ") {");
    else
      line(cond.empty() ? "} else {" : "} else if (" + cond + ") {");
    indent_ += 2;
    bind(arm.pattern, path);
    tail(arm.body, sink);
    indent_ -= 2;
    // An arm that takes every value leaves nothing to the arms after it.
    if (cond.empty()) break;
  }
  if (!arms.empty()) line("}");
}

std::string Lowerer::test(InstId pattern, const std::string& path) {
  const Inst& p = inst(pattern);
  const Type* t = type(p.type);
  // A literal or range of an opaque or refined type is its base value.
  auto base = [&]() {
    if (t->kind != TypeKind::Named) return path;
    if (t->named->def == check::TypeDefKind::Opaque)
      return member(path, "raw()");
    if (t->named->def == check::TypeDefKind::Refined)
      return member(path, "value()");
    return path;
  };
  switch (p.kind) {
    case InstKind::PatWildcard:
    case InstKind::PatBind:
      return "";
    case InstKind::PatLiteral: {
      InstId value = p.as<check::PatLiteral>().value;
      const Type* lt = typeOf(value);
      std::string v = lt == t ? path : base();
      return v + " == " + operand(value, Prec::Add);
    }
    case InstKind::PatRange: {
      std::string v = base();
      const check::PatRange range = p.as<check::PatRange>();
      std::vector<std::string> tests;
      if (range.low.valid())
        tests.push_back(v + " >= " + operand(range.low, Prec::Add));
      if (range.high.valid())
        tests.push_back(v + " <= " + operand(range.high, Prec::Add));
      return conjunction(tests);
    }
    case InstKind::PatNone:
      return "!" + member(path, "has_value()");
    case InstKind::PatSome:
      return conjunction({member(path, "has_value()"),
                          test(p.as<check::PatSome>().inner, deref(path))});
    case InstKind::PatVariant: {
      const check::PatVariant pv = p.as<check::PatVariant>();
      const auto& [sum, v] = program_.bodies.variants[pv.variant];
      std::string s = spelling_.decl(*sum);
      if (isEnumSum(sum)) return path + " == " + s + "::" + cppName(v->name);
      spelling_.useHeader("<variant>");
      std::string alt = s + "::" + cppName(v->name);
      std::string payload =
          "std::get<" + alt + ">(" + member(path, "value") + ")";
      std::vector<std::string> tests{"std::holds_alternative<" + alt + ">(" +
                                     member(path, "value") + ")"};
      llvm::ArrayRef<InstId> subs = list(pv.fields);
      for (std::size_t k = 0; k < subs.size() && k < v->fields.size(); ++k)
        tests.push_back(
            test(subs[k], payload + "." + cppName(v->fields[k].name)));
      return conjunction(tests);
    }
    case InstKind::PatRecord: {
      const std::vector<check::FieldInfo>& declared =
          t->kind == TypeKind::Event ? t->event->fields : t->named->fields;
      std::vector<std::string> tests;
      llvm::ArrayRef<InstId> subs = list(p.as<check::PatRecord>().fields);
      for (std::size_t k = 0; k < subs.size() && k < declared.size(); ++k)
        tests.push_back(test(subs[k], member(path, cppName(declared[k].name))));
      return conjunction(tests);
    }
    case InstKind::PatOr: {
      const check::PatOr alt = p.as<check::PatOr>();
      std::string l = test(alt.lhs, path);
      std::string r = test(alt.rhs, path);
      if (l.empty() || r.empty()) return "";
      // Parentheses around a conjunction inside `||`, as -Wparentheses asks.
      if (l.find(" && ") != std::string::npos) l = "(" + l + ")";
      if (r.find(" && ") != std::string::npos) r = "(" + r + ")";
      return l + " || " + r;
    }
    case InstKind::Invalid:
    case InstKind::IntLit:
    case InstKind::FloatLit:
    case InstKind::BoolLit:
    case InstKind::StringLit:
    case InstKind::UnitLit:
    case InstKind::DurationLit:
    case InstKind::Interpolate:
    case InstKind::ListLit:
    case InstKind::MapLit:
    case InstKind::RecordLit:
    case InstKind::EventLit:
    case InstKind::FieldDefault:
    case InstKind::ParamRef:
    case InstKind::KeyRef:
    case InstKind::StoreRef:
    case InstKind::LocalRef:
    case InstKind::ActorRef:
    case InstKind::Dependency:
    case InstKind::CapabilityName:
    case InstKind::Let:
    case InstKind::StoreWrite:
    case InstKind::Block:
    case InstKind::If:
    case InstKind::IfElse:
    case InstKind::Match:
    case InstKind::MatchArm:
    case InstKind::Fail:
    case InstKind::Unary:
    case InstKind::Binary:
    case InstKind::CallFn:
    case InstKind::Variant:
    case InstKind::OptionSome:
    case InstKind::OptionNone:
    case InstKind::OpaqueBuild:
    case InstKind::OpaqueRaw:
    case InstKind::FieldGet:
    case InstKind::EnvelopeGet:
    case InstKind::AgentRef:
    case InstKind::Message:
    case InstKind::CapCall:
    case InstKind::Emit:
    case InstKind::Method:
    case InstKind::RefineCheck:
    case InstKind::Unrefine:
      // Not patterns.
      return "";
  }
  return "";
}

void Lowerer::bind(InstId pattern, const std::string& path) {
  const Inst& p = inst(pattern);
  const Type* t = type(p.type);
  if (p.kind == InstKind::PatBind) {
    // A copy: the arm may write the store the value came from.
    line(declareSlot(p.as<check::PatBind>().slot) + path + ";");
  } else if (p.kind == InstKind::PatSome) {
    bind(p.as<check::PatSome>().inner, deref(path));
  } else if (p.kind == InstKind::PatVariant) {
    const check::PatVariant pv = p.as<check::PatVariant>();
    const auto& [sum, v] = program_.bodies.variants[pv.variant];
    if (isEnumSum(sum)) return;
    std::string alt = spelling_.decl(*sum) + "::" + cppName(v->name);
    std::string payload =
        "std::get<" + alt + ">(" + member(path, "value") + ")";
    llvm::ArrayRef<InstId> subs = list(pv.fields);
    for (std::size_t k = 0; k < subs.size() && k < v->fields.size(); ++k)
      bind(subs[k], payload + "." + cppName(v->fields[k].name));
  } else if (p.kind == InstKind::PatRecord) {
    const std::vector<check::FieldInfo>& declared =
        t->kind == TypeKind::Event ? t->event->fields : t->named->fields;
    llvm::ArrayRef<InstId> subs = list(p.as<check::PatRecord>().fields);
    for (std::size_t k = 0; k < subs.size() && k < declared.size(); ++k)
      bind(subs[k], member(path, cppName(declared[k].name)));
  }
}

}  // namespace herald::codegen::lower
