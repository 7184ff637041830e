// The arguments of a call against its parameters: one per parameter, in
// order, labels naming the parameter at their position. A wrong count is one
// error with the signature, and two arguments that fit only the other's
// parameter are one error suggesting the swap, rather than a type error
// for each argument.
#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "checker/body_checker.h"
#include "checker/record_use.h"

namespace herald::check {

namespace {

// `(cents: Int, currency: String)`: what a call must pass.
std::string parameterList(llvm::ArrayRef<ParamView> params) {
  std::string out = "(";
  for (const ParamView& p : params) {
    if (out.size() > 1) out += ", ";
    out += fmt::format("{}: {}", p.name.str(), displayName(p.type));
  }
  return out + ")";
}

}  // namespace

bool BodyChecker::fits(const Type* actual, const Type* expected) {
  return actual == expected || actual->kind == TypeKind::Never ||
         stripRefined(actual) == stripRefined(expected);
}

InstId BodyChecker::checkArgsQuietly(const ast::CallExpr* call,
                                     const Type* type) {
  for (const ast::Arg& arg : call->args) check(arg.value, nullptr);
  return invalid(call->range, type);
}

void BodyChecker::checkArgs(llvm::StringRef callee,
                            llvm::ArrayRef<FieldInfo> params,
                            const ast::CallExpr* call,
                            llvm::SmallVectorImpl<InstId>& out) {
  llvm::SmallVector<ParamView, 4> views;
  for (const FieldInfo& f : params)
    views.push_back({llvm::StringRef(f.name), f.type, f.nameRange});
  checkArgs(callee, views, call, out);
}

void BodyChecker::checkArgs(llvm::StringRef callee,
                            llvm::ArrayRef<ParamView> params,
                            const ast::CallExpr* call,
                            llvm::SmallVectorImpl<InstId>& out) {
  if (call->args.size() != params.size()) {
    auto report = sema().diags.report<diag::ArgumentCount>(
        call->range, callee, static_cast<std::uint32_t>(params.size()),
        static_cast<std::uint32_t>(call->args.size()));
    if (params.empty())
      report.note("'{}' takes no arguments", callee.str());
    else
      report.note("'{}' takes {}", callee.str(), parameterList(params));
    // Which argument was meant for which parameter is unknown, so none is
    // checked against a parameter's type: a type error would blame an
    // argument for a parameter it was not written for. An argument whose
    // type only a parameter could give is left unchecked.
    for (const ast::Arg& arg : call->args)
      out.push_back(needsExpected(arg.value) ? invalid(arg.value->range)
                                             : checkUsed(arg.value, nullptr));
    return;
  }
  llvm::SmallVector<InstId, 4> values;
  for (std::size_t i = 0; i < call->args.size(); ++i) {
    const ast::Arg& arg = call->args[i];
    values.push_back(checkUsed(arg.value, params[i].type));
    if (arg.label.empty()) continue;
    if (arg.label.name == params[i].name) {
      recordLabelUse(sema().program, arg.label, params[i].nameRange);
      continue;
    }
    auto report = sema().diags.report<diag::ArgumentLabel>(
        arg.label.range,
        fmt::format("argument {} of '{}' is labelled '{}', but parameter {} "
                    "is '{}'",
                    i + 1, callee.str(), arg.label.name.str(), i + 1,
                    params[i].name.str()));
    for (std::size_t j = 0; j < params.size(); ++j)
      if (j != i && params[j].name == arg.label.name)
        report.note("arguments are positional: '{}' is parameter {}",
                    arg.label.name.str(), j + 1);
    report.fixit(arg.label.range, params[i].name.str());
  }
  std::optional<std::pair<std::size_t, std::size_t>> swapped =
      swappedArguments(values, params);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const ast::Expr* value = call->args[i].value;
    if (swapped && (i == swapped->first || i == swapped->second))
      out.push_back(invalid(value->range, params[i].type));
    else
      out.push_back(coerce(value, values[i], params[i].type));
  }
  if (!swapped) return;
  const ast::Expr* first = call->args[swapped->first].value;
  const ast::Expr* second = call->args[swapped->second].value;
  auto report = sema().diags.report<diag::TypeMismatch>(
      first->range, displayName(params[swapped->first].type),
      displayName(typeOf(values[swapped->first])));
  report.note(second->range, "and argument {} is '{}', where '{}' is expected",
              swapped->second + 1, displayName(typeOf(values[swapped->second])),
              displayName(params[swapped->second].type));
  report.note("arguments {} and {} look swapped: '{}' takes {}",
              swapped->first + 1, swapped->second + 1, callee.str(),
              parameterList(params));
  // One edit spanning both, so that applying it keeps what lies between.
  if (first->range.file == second->range.file &&
      first->range.end <= second->range.begin) {
    llvm::StringRef between = sema().sources.textOf(
        SourceRange{first->range.file, first->range.end, second->range.begin});
    report.fixit(SourceRange::join(first->range, second->range),
                 std::string(sema().sources.textOf(second->range)) +
                     between.str() +
                     std::string(sema().sources.textOf(first->range)));
  }
}

std::optional<std::pair<std::size_t, std::size_t>>
BodyChecker::swappedArguments(llvm::ArrayRef<InstId> values,
                              llvm::ArrayRef<ParamView> params) const {
  // Exactly two arguments do not fit, each fits the other's parameter.
  llvm::SmallVector<std::size_t, 2> wrong;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const Type* actual = typeOf(values[i]);
    if (quiet(actual) || quiet(params[i].type)) return std::nullopt;
    if (fits(actual, params[i].type)) continue;
    if (wrong.size() == 2) return std::nullopt;
    wrong.push_back(i);
  }
  if (wrong.size() != 2) return std::nullopt;
  std::size_t a = wrong[0];
  std::size_t b = wrong[1];
  if (!fits(typeOf(values[a]), params[b].type) ||
      !fits(typeOf(values[b]), params[a].type))
    return std::nullopt;
  return std::make_pair(a, b);
}

}  // namespace herald::check
