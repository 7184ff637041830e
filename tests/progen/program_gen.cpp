#include "tests/progen/program_gen.h"

#include <map>
#include <memory>

#include <fmt/format.h>

#include "bench/gen/rng.h"
#include "tests/progen/expr_gen.h"
#include "tests/progen/types.h"

namespace herald::progen {

namespace {

// How a context sees another one's names (language reference, section 6).
enum class Consume { Bare, Alias, Listed, Qualified };

struct Context {
  std::string name;   // `g7.c1`
  std::string local;  // `c1`, also its alias
  TypeP record, sum, opaque, refined, event;
  std::vector<Function> functions;  // pure, callable from this context
  std::vector<Function> capabilityOps;
  std::map<int, Consume> consumes;     // earlier contexts it sees
  std::vector<std::string> decls;      // top-level declarations, as text
  std::vector<std::string> defaulted;  // event fields with a default
  TypeP agentKey;                      // the key of its agent
};

const TypeP kInt = builtin(Kind::Int);
const TypeP kFloat = builtin(Kind::Float);
const TypeP kBool = builtin(Kind::Bool);
const TypeP kString = builtin(Kind::String);
const TypeP kDuration = builtin(Kind::Duration);
const TypeP kInstant = builtin(Kind::Instant);

class Generator {
 public:
  explicit Generator(const ProgramOptions& options)
      : rng_(options.seed * 0x2545F4914F6CDD1DULL + 17),
        gen_(rng_, [this](const Type& t, int from) { return spell(t, from); }),
        prefix_(options.prefix.empty() ? fmt::format("g{}", options.seed)
                                       : options.prefix) {}

  std::vector<GeneratedFile> run();

 private:
  std::string spell(const Type& t, int from) const;
  void declareTypes(int i);
  void emitTypes(int i);
  void emitEvent(int i);
  void emitFunctions(int i);
  void emitAgent(int i);
  void emitSubscriber(int i, int source, bool cycle);
  void emitDesk(int i);
  std::string eventLiteral(Scope& scope, int i, int ind,
                           const std::string& who);
  // Statements of a handler returning (), each on its own line.
  std::string statements(Scope& scope, int count, int ind, bool stores);
  TypeP paramType(int i);
  std::string via();
  std::vector<GeneratedFile> files();

  bench::Rng rng_;
  ExprGen gen_;
  std::string prefix_;
  std::vector<Context> contexts_;
  // Agent state for the statement generator.
  std::vector<Var> stores_;
  std::vector<Function> agentFns_;
  bool logger_ = false, events_ = false;
  std::string boxes_;  // a `Ref[Acc]` dependency in scope, or empty
  TypeP boxesKey_;     // the key type of its agent
  int owner_ = 0;
  std::string emitWho_;  // the agent's key as a String
};

std::string Generator::spell(const Type& t, int from) const {
  if (t.context == from) return t.name;
  const Context& owner = contexts_[static_cast<std::size_t>(t.context)];
  auto it = contexts_[static_cast<std::size_t>(from)].consumes.find(t.context);
  if (it == contexts_[static_cast<std::size_t>(from)].consumes.end())
    return owner.name + "." + t.name;
  switch (it->second) {
    case Consume::Bare:
    case Consume::Listed:
      return t.name;
    case Consume::Alias:
      return owner.local + "." + t.name;
    case Consume::Qualified:
      return owner.name + "." + t.name;
  }
  return t.name;
}

void Generator::declareTypes(int i) {
  Context& c = contexts_[static_cast<std::size_t>(i)];
  auto refined = std::make_shared<Type>();
  refined->kind = Kind::Refined;
  refined->context = i;
  refined->name = fmt::format("Qty{}", i);
  refined->low = rng_.range(0, 3);
  refined->high = rng_.range(10, 1000);
  c.refined = refined;

  auto opaque = std::make_shared<Type>();
  opaque->kind = Kind::Opaque;
  opaque->context = i;
  opaque->name = fmt::format("Id{}", i);
  c.opaque = opaque;

  auto record = std::make_shared<Type>();
  record->kind = Kind::Record;
  record->context = i;
  record->name = fmt::format("Rec{}", i);
  const std::vector<Field> pool = {{"amount", kInt}, {"label", kString},
                                   {"flag", kBool},  {"wait", kDuration},
                                   {"qty", refined}, {"code", kString}};
  for (const Field& f : pool)
    if (rng_.chance(55) || record->fields.empty()) record->fields.push_back(f);
  c.record = record;

  auto sum = std::make_shared<Type>();
  sum->kind = Kind::Sum;
  sum->context = i;
  sum->name = fmt::format("Sum{}", i);
  sum->variants.push_back({fmt::format("Idle{}", i), {}});
  sum->variants.push_back(
      {fmt::format("Busy{}", i), {{"count", kInt}, {"label", kString}}});
  if (rng_.chance(70))
    sum->variants.push_back({fmt::format("Done{}", i),
                             {{"ok", kBool},
                              {"rec", record},
                              {"note", applied(Kind::Option, {kString})}}});
  if (rng_.chance(50)) sum->variants.push_back({fmt::format("Lost{}", i), {}});
  c.sum = sum;
}

void Generator::emitTypes(int i) {
  Context& c = contexts_[static_cast<std::size_t>(i)];
  c.decls.push_back(fmt::format("type {} = Int where self >= {} && self <= {}",
                                c.refined->name, c.refined->low,
                                c.refined->high));
  c.decls.push_back(fmt::format("type {} = opaque String where len(self) > 0",
                                c.opaque->name));
  std::string rec = "type " + c.record->name + " = {";
  for (std::size_t k = 0; k < c.record->fields.size(); ++k)
    rec += fmt::format("{} {}: {}", k == 0 ? "" : ",", c.record->fields[k].name,
                       gen_.typeName(*c.record->fields[k].type, i));
  c.decls.push_back(rec + " }");
  std::string sum = "type " + c.sum->name + " =";
  for (const Variant& v : c.sum->variants) {
    sum += " | " + v.name;
    if (v.fields.empty()) continue;
    sum += "(";
    for (std::size_t k = 0; k < v.fields.size(); ++k)
      sum += fmt::format("{}{}: {}", k == 0 ? "" : ", ", v.fields[k].name,
                         gen_.typeName(*v.fields[k].type, i));
    sum += ")";
  }
  c.decls.push_back(sum);
  c.decls.push_back(fmt::format("type Stamp{} = Instant", i));
  c.decls.push_back(fmt::format("actor Clerk{}(name: String)", i));
  c.decls.push_back(fmt::format("actor System{}", i));
  c.capabilityOps = {{"quote", {{"amount", kInt}, {"label", kString}}, kInt},
                     {"describe", {{"r", c.record}}, kString}};
  c.decls.push_back(fmt::format(
      "capability Pricing{0} {{\n  fn quote(amount: Int, label: String) -> "
      "Int\n  fn describe(r: {1}) -> String\n}}",
      i, c.record->name));
  // Static functions of the opaque type: its constructor and `.raw` are
  // usable here only.
  c.decls.push_back(
      fmt::format("fn {0}.of(s: String) -> {0} {{\n  {0}(\"id-\" + s)\n}}",
                  c.opaque->name));
  c.decls.push_back(fmt::format("fn {0}.text(x: {0}) -> String {{\n  x.raw\n}}",
                                c.opaque->name));
  c.functions.push_back({c.opaque->name + ".of", {{"s", kString}}, c.opaque});
  c.functions.push_back({c.opaque->name + ".text", {{"x", c.opaque}}, kString});
}

void Generator::emitEvent(int i) {
  Context& c = contexts_[static_cast<std::size_t>(i)];
  auto event = std::make_shared<Type>();
  event->kind = Kind::Record;
  event->event = true;
  event->context = i;
  event->name = fmt::format("Ev{}", i);
  struct Candidate {
    Field field;
    bool hasDefault;
  };
  std::vector<Candidate> pool = {
      {{"who", kString}, false},
      {{"at", kInstant}, false},
      {{"id", c.opaque}, rng_.chance(50)},
      {{"amount", kInt}, rng_.chance(70)},
      {{"state", c.sum}, rng_.chance(70)},
      {{"note", applied(Kind::Option, {kString})}, rng_.chance(70)},
      {{"tags", applied(Kind::List, {kString})}, rng_.chance(70)},
      {{"counts", applied(Kind::Map, {kString, kInt})}, rng_.chance(70)},
      {{"wait", kDuration}, rng_.chance(70)},
      {{"qty", c.refined}, rng_.chance(70)},
      {{"rec", c.record}, rng_.chance(70)},
      {{"flag", kBool}, rng_.chance(50)},
  };
  std::vector<std::string> lines;
  for (const Candidate& cand : pool) {
    if (cand.field.name != "who" && cand.field.name != "at" && rng_.chance(25))
      continue;
    event->fields.push_back(cand.field);
    std::string type = cand.field.name == "at"
                           ? fmt::format("Stamp{}", i)
                           : gen_.typeName(*cand.field.type, i);
    std::string line = "  " + cand.field.name + ": " + type;
    if (cand.hasDefault) line += " = " + gen_.constant(cand.field.type, i, 2);
    lines.push_back(line);
  }
  c.event = event;
  for (const Candidate& cand : pool)
    if (cand.hasDefault) c.defaulted.push_back(cand.field.name);
  std::string annotation;
  if (rng_.chance(40))
    annotation = fmt::format("@schema({}) ", rng_.range(1, 3));
  // `=` is optional; the annotation stands before or after the name.
  std::string head = rng_.chance(50)
                         ? annotation + "event " + event->name + " ="
                         : "event " + event->name + " " + annotation +
                               (rng_.chance(50) ? "=" : "");
  std::string text = head + " {\n";
  for (const std::string& l : lines) text += l + ",\n";
  c.decls.push_back(text + "}");
}

TypeP Generator::paramType(int i) {
  const Context& c = contexts_[static_cast<std::size_t>(i)];
  std::vector<TypeP> pool = {kInt,
                             kFloat,
                             kString,
                             kBool,
                             kDuration,
                             c.record,
                             c.sum,
                             c.opaque,
                             c.refined,
                             applied(Kind::Option, {kInt}),
                             applied(Kind::Option, {c.sum}),
                             applied(Kind::List, {kString}),
                             applied(Kind::Map, {kString, kInt})};
  for (const auto& [j, mode] : c.consumes) {
    (void)mode;
    pool.push_back(contexts_[static_cast<std::size_t>(j)].sum);
    pool.push_back(contexts_[static_cast<std::size_t>(j)].record);
  }
  return rng_.pick(pool);
}

void Generator::emitFunctions(int i) {
  Context& c = contexts_[static_cast<std::size_t>(i)];
  const int count = rng_.range(2, 4);
  for (int k = 0; k < count; ++k) {
    Function fn;
    fn.callee = fmt::format("calc{}_{}", i, k);
    const int params = rng_.range(0, 3);
    for (int p = 0; p < params; ++p)
      fn.params.push_back({fmt::format("a{}", p), paramType(i)});
    fn.result = paramType(i);
    Scope scope;
    scope.context = i;
    scope.functions = c.functions;
    std::string text = "fn " + fn.callee + "(";
    for (std::size_t p = 0; p < fn.params.size(); ++p) {
      if (p != 0) text += ", ";
      text += fn.params[p].name + ": " + gen_.typeName(*fn.params[p].type, i);
      scope.vars.push_back({fn.params[p].name, fn.params[p].type});
    }
    text += ") -> " + gen_.typeName(*fn.result, i) + " {\n";
    const int lets = rng_.range(0, 2);
    for (int l = 0; l < lets; ++l) {
      TypeP t = paramType(i);
      std::string name = gen_.freshName("x");
      text += "  let " + name + ": " + gen_.typeName(*t, i) + " = " +
              gen_.expr(scope, t, 3, 1) + "\n";
      scope.vars.push_back({name, t});
    }
    text += "  " + gen_.expr(scope, fn.result, 3, 1) + "\n}";
    c.decls.push_back(text);
    c.functions.push_back(fn);
  }
}

std::string Generator::eventLiteral(Scope& scope, int i, int ind,
                                    const std::string& who) {
  const Context& c = contexts_[static_cast<std::size_t>(i)];
  std::vector<Field> fields;
  for (const Field& f : c.event->fields) {
    bool defaulted = false;
    for (const std::string& d : c.defaulted) defaulted |= d == f.name;
    if (!defaulted || rng_.chance(50)) fields.push_back(f);
  }
  if (rng_.chance(40)) rng_.shuffle(fields);
  std::string text = c.event->name + " { ";
  for (std::size_t k = 0; k < fields.size(); ++k) {
    if (k != 0) text += ", ";
    std::string value = fields[k].name == "who" && rng_.chance(50)
                            ? who
                            : gen_.expr(scope, fields[k].type, 2, ind);
    text += fields[k].name + ": " + value;
  }
  return text + " }";
}

std::string Generator::statements(Scope& scope, int count, int ind,
                                  bool stores) {
  const std::string in = ExprGen::indent(ind);
  std::string text;
  for (int s = 0; s < count; ++s) {
    switch (rng_.range(0, 7)) {
      case 0:
      case 1: {
        TypeP t = paramType(scope.context);
        if (!gen_.canMake(scope, *t)) t = kInt;
        std::string name = gen_.freshName("v");
        const bool annotate = rng_.chance(60) || !(t->kind == Kind::String ||
                                                   t->kind == Kind::Bool);
        std::string value = annotate ? gen_.expr(scope, t, 3, ind)
                                     : gen_.constant(t, scope.context, 1);
        text += fmt::format(
            "{}let {}{} = {}\n", in, name,
            annotate ? ": " + gen_.typeName(*t, scope.context) : "", value);
        scope.vars.push_back({name, t});
        break;
      }
      case 2:
        if (stores && !stores_.empty()) {
          const Var& store = rng_.pick(stores_);
          if (gen_.canMake(scope, *store.type)) {
            text += in + store.name +
                    " := " + gen_.expr(scope, store.type, 2, ind) + "\n";
            break;
          }
        }
        [[fallthrough]];
      case 3:
        if (logger_) {
          static const char* const kLevels[] = {"info", "warn", "error"};
          text += in + "Logger." + kLevels[rng_.range(0, 2)] + "(" +
                  gen_.expr(scope, kString, 2, ind) + ")\n";
          break;
        }
        [[fallthrough]];
      case 4:
        if (!boxes_.empty()) {
          text += in + boxes_ + "(" + gen_.expr(scope, boxesKey_, 1, ind) +
                  ").bump(" + gen_.expr(scope, kInt, 1, ind) + ", " +
                  gen_.expr(scope, kString, 1, ind) + ")\n";
          break;
        }
        [[fallthrough]];
      case 5:
        if (stores && !agentFns_.empty()) {
          text += in + "record(" + gen_.expr(scope, kString, 1, ind) + ")\n";
          break;
        }
        [[fallthrough]];
      case 6: {
        if (count - s > 1 && ind < 4) {
          const std::size_t mark = scope.vars.size();
          text += in + "if " + gen_.expr(scope, kBool, 2, ind) + " {\n";
          text += statements(scope, rng_.range(1, 2), ind + 1, stores);
          text += in + "}\n";
          scope.vars.resize(mark);
          break;
        }
        [[fallthrough]];
      }
      default:
        if (events_ && owner_ == scope.context) {
          const std::string literal =
              eventLiteral(scope, scope.context, ind, emitWho_);
          if (rng_.chance(50))
            text += fmt::format("{}Events.emit({})\n", in, literal);
          else
            text += fmt::format(
                "{}Events.emit[{}]({})\n", in,
                contexts_[static_cast<std::size_t>(scope.context)].event->name,
                literal);
        } else {
          const std::string name = gen_.freshName("u");
          text += fmt::format("{}let {} = {}\n", in, name,
                              gen_.expr(scope, kInt, 2, ind));
        }
        break;
    }
  }
  return text;
}

void Generator::emitAgent(int i) {
  Context& c = contexts_[static_cast<std::size_t>(i)];
  const bool opaqueKey = rng_.chance(40);
  const TypeP keyType = opaqueKey ? c.opaque : kString;
  c.agentKey = keyType;
  emitWho_ = opaqueKey ? "id.raw" : "id";
  stores_ = {{"count", kInt},
             {"log", applied(Kind::List, {kString})},
             {"seen", applied(Kind::Map, {kString, kInt})},
             {"last", applied(Kind::Option, {kInstant})},
             {"state", c.sum},
             {"level", c.refined}};
  agentFns_ = {{"record", {{"label", kString}}, nullptr}};
  owner_ = i;
  std::string text = fmt::format("agent Acc{} {{\n  key id: {}\n", i,
                                 gen_.typeName(*keyType, i));
  text += "\n";
  Scope storeScope;
  storeScope.context = i;
  for (const Var& s : stores_) {
    std::string init;
    switch (s.type->kind) {
      case Kind::Option:
        init = "None";
        break;
      case Kind::List:
        init = rng_.chance(50) ? "[]" : "[\"start\"]";
        break;
      case Kind::Map:
        init = rng_.chance(50) ? "[:]" : "[\"start\": 0]";
        break;
      case Kind::Int:
      case Kind::Float:
      case Kind::Bool:
      case Kind::String:
      case Kind::Duration:
      case Kind::Instant:
      case Kind::Record:
      case Kind::Sum:
      case Kind::Opaque:
      case Kind::Refined:
        init = gen_.constant(s.type, i, 2);
        break;
    }
    text += "  store " + s.name + ": " + gen_.typeName(*s.type, i) + " = " +
            init + "\n";
  }
  // Invariants are pure Bool expressions over the key and the stores.
  Scope inv;
  inv.context = i;
  inv.vars = stores_;
  inv.vars.push_back({"id", keyType});
  inv.functions = c.functions;
  // Any Bool: over the key alone, its check leaves the state unread.
  text += "\n  invariant sane: " + gen_.expr(inv, kBool, 2, 1) + "\n";
  if (rng_.chance(50))
    text += "  invariant bounded: count >= -1_000_000_000 || log.len() >= 0\n";

  auto handlerScope = [&](const std::vector<Field>& params) {
    Scope scope;
    scope.context = i;
    scope.vars = stores_;
    scope.vars.push_back({"id", keyType});
    for (const Field& p : params) scope.vars.push_back({p.name, p.type});
    scope.functions = c.functions;
    return scope;
  };

  // A handler other agents message: it emits the context's event.
  {
    Scope scope = handlerScope({{"amount", kInt}, {"label", kString}});
    scope.clock = true;
    logger_ = rng_.chance(50);
    events_ = true;
    boxes_.clear();
    if (opaqueKey) scope.vars.push_back({"keyText", kString});
    text += fmt::format(
        "\n  on bump(amount: Int, label: String) given Events, Clock{} {{\n",
        logger_ ? ", Logger" : "");
    if (opaqueKey) text += "    let keyText = id.raw\n";
    text += "    count := count + 1\n    last := Some(Clock.now)\n";
    text += statements(scope, rng_.range(1, 4), 2, true);
    text +=
        "    Events.emit(" + eventLiteral(scope, i, 2, emitWho_) + ")\n  }\n";
  }
  {
    text += "\n  on call total() -> Int {\n    count\n  }\n";
    TypeP t = paramType(i);
    Scope peek = handlerScope({{"label", kString}});
    text += "\n  on call peek(label: String) -> " + gen_.typeName(*t, i) +
            " {\n    " + gen_.expr(peek, t, 3, 2) + "\n  }\n";
  }
  {
    Scope scope = handlerScope({{"amount", kInt}});
    scope.random = rng_.chance(50);
    logger_ = true;
    events_ = false;
    text +=
        fmt::format("\n  on act(amount: Int) by c: Clerk{} given Logger{} {{\n",
                    i, scope.random ? ", Random" : "");
    text += "    Logger.info(\"\\(c.name) acts on \\(id) with \\(amount)\")\n";
    scope.vars.push_back({"c.name", kString});
    text += statements(scope, rng_.range(1, 3), 2, true);
    text += "  }\n";
  }
  {
    Scope scope = handlerScope({});
    logger_ = false;
    events_ = false;
    text += fmt::format("\n  on audit() by System{} {{\n", i);
    text += statements(scope, rng_.range(1, 2), 2, true);
    text += "  }\n";
  }
  text +=
      "\n  fn record(label: String) {\n    log := log.append(label)\n"
      "    seen := seen.put(label, count)\n  }\n";
  text += "}";
  c.decls.push_back(text);
  stores_.clear();
  agentFns_.clear();
  logger_ = events_ = false;
}

std::string Generator::via() {
  switch (rng_.range(0, 5)) {
    case 0:
      return " via schema(1..)";
    case 1:
      return " via schema(_)";
    case 2:
      return " via schema(..3)";
    case 3:
      return " via schema(1..2)";
    case 4:
      return " via schema(1)";
    default:
      return "";
  }
}

void Generator::emitSubscriber(int i, int source, bool cycle) {
  Context& c = contexts_[static_cast<std::size_t>(i)];
  const Context& src = contexts_[static_cast<std::size_t>(source)];
  const std::string event = spell(*src.event, i);
  std::string pattern = gen_.subscriptionPattern(*src.event, i);
  std::string from = "Events(" + event;
  if (!pattern.empty()) {
    // `E < ... >` is the other spelling of a pattern.
    if (rng_.chance(15))
      from += " <" + pattern.substr(1, pattern.size() - 2) + ">";
    else
      from += " " + pattern;
  }
  from += ")";
  const bool withFx = rng_.chance(50);
  const bool envelope = rng_.chance(60);
  std::string given =
      fmt::format("Boxes: Ref[{}], Logger, Idempotency",
                  spell(Type{Kind::Record, {}, i, fmt::format("Acc{}", i)}, i));
  if (withFx)
    given +=
        ", Fx: " + (source == i ? fmt::format("Pricing{}", i)
                                : spell(Type{Kind::Record,
                                             {},
                                             source,
                                             fmt::format("Pricing{}", source)},
                                        i));
  std::string text = fmt::format(
      "{}service {} from {}{} given {} {{\n", cycle ? "@cycle " : "",
      fmt::format("{}{}", cycle ? "Loop" : "Watch", i), from, via(), given);
  Scope scope;
  scope.context = i;
  scope.functions = c.functions;
  scope.vars.push_back({"e", src.event});
  if (withFx) scope.capabilities.push_back({"Fx", src.capabilityOps});
  text += "  on event(e: " + event + (envelope ? ", env: EventEnvelope" : "") +
          ") {\n";
  if (envelope) {
    text +=
        "    if !Idempotency.seen(env.eventId) {\n"
        "      Idempotency.remember(env.eventId, 7.days)\n    }\n";
    text +=
        "    Logger.info(\"event \\(env.eventId) v\\(env.schemaVersion) "
        "depth \\(env.depth) from \\(env.publisherId)\")\n";
    scope.vars.push_back({"env.sequence", kInt});
    scope.vars.push_back({"env.emittedAt", kInstant});
    scope.vars.push_back({"env.correlationId", kString});
    scope.vars.push_back({"env.causationId", applied(Kind::Option, {kString})});
  }
  logger_ = true;
  boxes_ = "Boxes";
  boxesKey_ = c.agentKey;
  events_ = false;
  text += statements(scope, rng_.range(1, 4), 2, false);
  if (!cycle) {
    text += "    Boxes(" + gen_.expr(scope, c.agentKey, 1, 2) + ").bump(" +
            gen_.expr(scope, kInt, 1, 2) + ", " +
            gen_.expr(scope, kString, 1, 2) + ")\n";
  } else {
    // The loop ends by its data: only small amounts go round again.
    text += "    if e.who.len() < 3 {\n      Boxes(" +
            gen_.expr(scope, c.agentKey, 1, 3) +
            ").bump(1, \"again\")\n    }\n";
  }
  text += "  }\n}";
  logger_ = false;
  boxes_.clear();
  c.decls.push_back(text);
}

void Generator::emitDesk(int i) {
  Context& c = contexts_[static_cast<std::size_t>(i)];
  std::string text =
      fmt::format("service Desk{0} given Fx: Pricing{0} {{\n", i);
  Scope scope;
  scope.context = i;
  scope.functions = c.functions;
  scope.capabilities.push_back({"Fx", c.capabilityOps});
  scope.vars.push_back({"amount", kInt});
  text += "  on call price(amount: Int) -> Int {\n    " +
          gen_.expr(scope, kInt, 3, 2) + "\n  }\n";
  text += "\n  on call now() -> Instant given Clock {\n    Clock.now + " +
          std::string("1.hour") + "\n  }\n";
  Scope helper;
  helper.context = i;
  helper.functions = c.functions;
  helper.vars.push_back({"x", kInt});
  text += "\n  fn helper(x: Int) -> Int {\n    " +
          gen_.expr(helper, kInt, 2, 2) + "\n  }\n";
  text += fmt::format(
      "\n  on poke(target: {1}) given Boxes: Ref[Acc{0}] {{\n"
      "    Boxes(target).bump(helper(1), \"poke\")\n  }}\n}}",
      i, gen_.typeName(*c.agentKey, i));
  c.decls.push_back(text);
}

std::vector<GeneratedFile> Generator::run() {
  const int count = rng_.range(2, 4);
  contexts_.resize(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    Context& c = contexts_[static_cast<std::size_t>(i)];
    c.local = fmt::format("c{}", i);
    c.name = prefix_ + "." + c.local;
    for (int j = 0; j < i; ++j)
      c.consumes[j] = static_cast<Consume>(rng_.range(0, 3));
    declareTypes(i);
  }
  for (int i = 0; i < count; ++i) {
    emitTypes(i);
    emitEvent(i);
    emitFunctions(i);
    emitAgent(i);
    emitDesk(i);
    if (i == 0 || rng_.chance(25)) emitSubscriber(i, i, true);
    if (i > 0) emitSubscriber(i, rng_.range(0, i - 1), false);
  }
  return files();
}

std::vector<GeneratedFile> Generator::files() {
  std::vector<GeneratedFile> out;
  // Block form puts the first two contexts in one file.
  const bool block = contexts_.size() >= 2 && rng_.chance(25);
  for (std::size_t i = 0; i < contexts_.size(); ++i) {
    Context& c = contexts_[i];
    std::string head;
    std::vector<std::string> decls;
    for (const auto& [j, mode] : c.consumes) {
      const Context& other = contexts_[static_cast<std::size_t>(j)];
      switch (mode) {
        case Consume::Bare:
          decls.push_back("consumes " + other.name);
          break;
        case Consume::Alias:
          decls.push_back("consumes " + other.name + " as " + other.local);
          break;
        case Consume::Listed:
          decls.push_back(
              fmt::format("consumes {0} {{ Rec{1}, Sum{1}, Ev{1}, Qty{1}, "
                          "Pricing{1}, Id{1} }}",
                          other.name, j));
          break;
        case Consume::Qualified:
          break;
      }
    }
    // Declaration order is free: a mutation shuffles it.
    std::vector<std::string> body = c.decls;
    if (rng_.chance(50)) rng_.shuffle(body);
    // Comments between declarations stay where they are when formatted.
    for (std::string& d : body)
      if (rng_.chance(15)) d.insert(0, "-- generated declaration\n");
    // A context split over two files: the second holds a tail of it.
    std::vector<std::string> second;
    if (!block && body.size() > 4 && rng_.chance(30)) {
      const std::size_t cut =
          body.size() - static_cast<std::size_t>(rng_.range(1, 3));
      second.assign(body.begin() + static_cast<std::ptrdiff_t>(cut),
                    body.end());
      body.resize(cut);
    }
    auto join = [](const std::vector<std::string>& head,
                   const std::vector<std::string>& items,
                   const std::string& ind) {
      std::string t;
      for (const std::string& h : head) t += ind + h + "\n";
      for (const std::string& d : items) {
        t += "\n";
        std::size_t start = 0;
        while (start < d.size()) {
          std::size_t nl = d.find('\n', start);
          if (nl == std::string::npos) nl = d.size();
          t += (nl > start ? ind : "") + d.substr(start, nl - start) + "\n";
          start = nl + 1;
        }
      }
      return t;
    };
    if (block && i < 2) {
      std::string text =
          "context " + c.name + " {\n" + join(decls, body, "  ") + "}\n";
      if (i == 0) {
        out.push_back({"both.herald", text});
      } else {
        out.back().text += "\n" + text;
      }
    } else {
      out.push_back({c.local + ".herald",
                     "context " + c.name + "\n\n" + join(decls, body, "")});
    }
    if (!second.empty())
      out.push_back({c.local + "_more.herald",
                     "context " + c.name + "\n" + join({}, second, "")});
  }
  return out;
}

}  // namespace

std::vector<GeneratedFile> generateProgram(const ProgramOptions& options) {
  Generator g(options);
  return g.run();
}

}  // namespace herald::progen
