// Agents (section 7): per agent a class with its State, its Ref (the
// address a message is sent to, one member per message handler), the typed
// handle for host calls, its key's text form and its kind; in the source,
// the handlers, agent fns, store initialisers, invariants, the state codec
// and the message table.
//
// An invariant that reads the key cannot be a herald::Invariant, which sees
// the state only: it is checked at the end of every handler body instead,
// which is the same point of the transaction.
#include <vector>

#include <fmt/format.h>
#include <llvm/Support/Casting.h>

#include "codegen/emit.h"
#include "codegen/predicate.h"
#include "ir/inst_views.h"

namespace herald::codegen {

namespace {

using check::AgentInfo;
using check::FieldInfo;
using check::HandlerInfo;
using check::Type;
using check::TypeDefKind;
using check::TypeKind;

// A fn of an agent that needs no invocation (as the body lowering calls
// it): it reads stores at most.
bool effectFree(const check::FnInfo& fn) {
  return fn.capabilitiesUsed.empty() && fn.commit.readOnly() &&
         fn.given.empty();
}

// `type name`, a parameter of a declaration.
std::string spacedParam(const std::string& type, const std::string& name) {
  std::string out = type;
  out += ' ';
  out += name;
  return out;
}

// Only a handler without a result and without `by` can be messaged.
bool messageable(const HandlerInfo& h) {
  return h.by == nullptr &&
         (h.result == nullptr || h.result->kind == TypeKind::Unit);
}

bool readsKey(const check::Program& p, check::BodyId body) {
  if (!body.valid()) return false;
  const check::Body& b = p.bodies[body];
  for (std::uint32_t i = b.firstInst; i < b.endInst; ++i) {
    const check::Inst& inst = p.bodies[check::InstId(i)];
    if (inst.kind == check::InstKind::KeyRef) return true;
    if (inst.is<check::CallFn>() &&
        p.bodies.fns[inst.as<check::CallFn>().fn]->agent != nullptr)
      return true;
  }
  return false;
}

class AgentEmitter {
 public:
  AgentEmitter(Emitter& e, const AgentInfo& a)
      : e_(e), a_(a), name_(cppName(a.name)) {
    keyType_ = a.key ? a.key->type : e.program.types.string();
    keyName_ = a.key ? cppName(a.key->name) : "key";
    for (const check::InvariantInfo& inv : a.invariants)
      if (readsKey(e.program, inv.body)) keyInvariants_.push_back(&inv);
  }

  void emit() {
    header();
    std::size_t decls = e_.out.privateDecls.size();
    std::size_t defs = e_.out.privateDefs.size();
    fns();
    state();
    invariants();
    handlers();
    // The agent's fns are called from its own bodies only.
    std::string prototypes;
    std::string_view own(e_.out.privateDefs);
    own.remove_prefix(defs);
    for (const FnDecl& fn : fnDecls_)
      prototypes += prototype(fn.decl, fn.name, own, fn.defined);
    e_.out.privateDecls.insert(decls, prototypes);
    handle();
    keyText();
    kind();
  }

 private:
  // The key parameter of a function whose body is `body`.
  std::string keyParam(Spelling& sp, std::string_view body) const {
    return param(Emitter::paramType(sp, keyType_), keyName_, body);
  }
  // The handle's parameters of a handler: the actor presented, then its
  // own; those of the definition whose body is `body` when there is one.
  std::string hostParams(Spelling& sp, const HandlerInfo& h,
                         const std::string* body) const {
    std::string out;
    if (h.by != nullptr) {
      std::string type = "const " + sp.decl(*h.by) + "&";
      out = body != nullptr ? param(type, byName(h), *body)
                            : type + " " + byName(h);
    }
    std::string own = body != nullptr ? Emitter::params(sp, h.params, *body)
                                      : Emitter::params(sp, h.params);
    if (!out.empty() && !own.empty()) out += ", ";
    return out + own;
  }
  static std::string byName(const HandlerInfo& h) {
    return h.byBinder.empty() ? "actor" : cppName(h.byBinder);
  }
  std::string handlerFn(const HandlerInfo& h) const {
    return name_ + "_on_" + cppName(h.name);
  }
  // The call of a handler's function from a handle or the message table.
  std::string handlerCall(const HandlerInfo& h, const std::string& key,
                          const std::string& args) const {
    std::string out = handlerFn(h) + "(tx, s, " + key;
    if (h.by != nullptr && !h.byBinder.empty()) out += ", " + byName(h);
    if (!args.empty()) out += ", " + args;
    return out + ")";
  }
  std::string checkCall(const std::string& key) const {
    if (keyInvariants_.empty()) return {};
    return name_ + "_check_invariants(s, " + key + ");\n";
  }

  void header() {
    Spelling& sp = e_.header;
    // The header declares the handle and names the runtime's types only:
    // herald/agent.hpp declares AgentRef, AgentKind, Runtime and
    // Invocation, and the Ref codec needs no more than json_fwd.hpp. The
    // source defines the bodies, against the runtime's templates.
    sp.useHeader("<herald/agent.hpp>");
    sp.useHeader("<string>");
    sp.useHeader("<string_view>");
    sp.useHeader("<herald/wire.hpp>");
    sp.useHeader("<nlohmann/json_fwd.hpp>");
    e_.source.useHeader("<herald/agent_kind.hpp>");
    e_.source.useHeader("<herald/invocation.hpp>");
    e_.source.useHeader("<herald/codec.hpp>");
    e_.source.useHeader("<herald/wire.hpp>");
    e_.source.useHeader("<nlohmann/json.hpp>");
    std::string& out = e_.out.agents;
    out += "class " + name_ + " {\n public:\n";
    out += "  using Key = " + sp.type(keyType_) + ";\n\n";
    out +=
        "  // The address of one instance; a member per handler sends it "
        "a\n  // one-way message, released when `tx` commits.\n";
    out += "  struct Ref {\n    Key key;\n";
    for (const HandlerInfo& h : a_.handlers) {
      if (!messageable(h)) continue;
      std::string ps = Emitter::params(sp, h.params);
      out += "    void " + cppName(h.name) + "(herald::Invocation& tx" +
             (ps.empty() ? "" : ", " + ps) + ") const;\n";
    }
    out +=
        "    friend bool operator==(const Ref&, const Ref&) = default;\n"
        "    friend auto operator<=>(const Ref&, const Ref&) = default;\n";
    out += "  };\n\n";
    out += "  struct State {\n";
    for (const check::StoreInfo& st : a_.stores)
      out += "    " + sp.type(st.field.type) + " " + cppName(st.field.name) +
             ";\n";
    out += "  };\n\n";
    out += "  static " + name_ + " at(herald::Runtime& rt, Key " + keyName_ +
           ");\n";
    for (const HandlerInfo& h : a_.handlers)
      out += "  " + sp.result(h.result) + " " + cppName(h.name) + "(" +
             hostParams(sp, h, nullptr) + ");\n";
    out += "  // The committed state.\n  State state() const;\n\n";
    out += "  static const herald::AgentKind<State>& kind();\n";
    out += "  // The key as the runtime addresses the instance.\n";
    out += "  static std::string key_text(const Key& key);\n";
    out += "  static Key key_from_text(std::string_view text);\n\n";
    out += " private:\n  " + name_ + "(herald::Runtime& rt, Key " + keyName_ +
           ");\n  Key key_;\n  herald::AgentRef<State> ref_;\n};\n\n";
  }

  void fns() {
    Spelling& sp = e_.source;
    for (const auto& fn : a_.fns) {
      std::string body =
          !fn->body.valid() ? std::string() : e_.bodies.statements(fn->body, 2);
      // The declaration's parameters, then the definition's.
      auto signature = [&](const std::string* used) {
        auto one = [&](const std::string& type, const std::string& name) {
          return used != nullptr ? param(type, name, *used)
                                 : spacedParam(type, name);
        };
        std::string lead = effectFree(*fn)
                               ? one("const " + name_ + "::State&", "s")
                               : one("herald::Invocation&", "tx") + ", " +
                                     one(name_ + "::State&", "s");
        lead += ", " + one(Emitter::paramType(sp, keyType_), keyName_);
        std::string ps = used != nullptr
                             ? Emitter::params(sp, fn->sig.params, *used)
                             : Emitter::params(sp, fn->sig.params);
        return sp.result(fn->sig.result) + " " + name_ + "_" +
               cppName(fn->name) + "(" + lead + (ps.empty() ? "" : ", " + ps) +
               ")";
      };
      fnDecls_.push_back({signature(nullptr), name_ + "_" + cppName(fn->name),
                          !fn->body.valid() ? 0U : 1U});
      if (!fn->body.valid()) continue;
      e_.out.privateDefs += signature(&body) + " {\n" + body + "}\n\n";
    }
  }

  void handlers() {
    Spelling& sp = e_.source;
    for (const HandlerInfo& h : a_.handlers) {
      std::string body =
          !h.body.valid() ? std::string() : e_.bodies.statements(h.body, 2);
      // The declaration's parameters, then the definition's.
      auto signature = [&](const std::string* used) {
        auto one = [&](const std::string& type, const std::string& name) {
          return used != nullptr ? param(type, name, *used)
                                 : spacedParam(type, name);
        };
        std::string ps = one("herald::Invocation&", "tx") + ", " +
                         one(name_ + "::State&", "s") + ", " +
                         one(Emitter::paramType(sp, keyType_), keyName_);
        if (h.by != nullptr && !h.byBinder.empty())
          ps += ", " + one("const " + sp.decl(*h.by) + "&", byName(h));
        std::string own = used != nullptr ? Emitter::params(sp, h.params, *used)
                                          : Emitter::params(sp, h.params);
        if (!own.empty()) ps += ", " + own;
        return sp.result(h.result) + " " + handlerFn(h) + "(" + ps + ")";
      };
      e_.out.privateDecls += signature(nullptr) + ";\n";
      e_.out.privateDefs += signature(&body) + " {\n" + body + "}\n\n";
      if (!messageable(h)) continue;
      // The message table's entry: decode the key and the arguments (a
      // failure is a MalformedMessage, D9), then run.
      std::string args;
      for (const FieldInfo& p : h.params)
        args += std::string(args.empty() ? "" : ", ") +
                "herald::decode_message([&] { return herald::wire::get<" +
                sp.type(p.type) + ">(herald::wire::at(args, " +
                cppStringLiteral(p.name) + ")); })";
      e_.out.privateDefs += "void " + name_ + "_run_" + cppName(h.name) +
                            "(herald::Invocation& tx, " + name_ +
                            "::State& s, std::string_view key, " +
                            (h.params.empty() ? "[[maybe_unused]] " : "") +
                            "const nlohmann::json& args) {\n  const " + name_ +
                            "::Key k = herald::decode_message([&] { return " +
                            name_ + "::key_from_text(key); });\n  " +
                            handlerCall(h, "k", args) + ";\n" +
                            indent(checkCall("k"), 2) + "}\n\n";
    }
  }

  void state() {
    Spelling& sp = e_.source;
    std::string st = name_ + "::State";
    std::string init = st + "{";
    std::string encode =
        "  nlohmann::json j;\n  herald::wire::set_object(j);\n";
    std::string decode = st + "{";
    for (std::size_t k = 0; k < a_.stores.size(); ++k) {
      const check::StoreInfo& s = a_.stores[k];
      std::string n = cppName(s.field.name);
      std::string sep = k == 0 ? "" : ", ";
      init += sep;
      init += '.';
      init += n;
      init += " = ";
      init += !s.body.valid() ? sp.type(s.field.type) + "()"
                              : e_.bodies.expression(s.body);
      encode += "  herald::wire::put(herald::wire::member(j, " +
                cppStringLiteral(s.field.name) + "), s." + n + ");\n";
      std::string stored = "herald::wire::get<";
      stored += sp.type(s.field.type);
      stored += ">(herald::wire::at(j, ";
      stored += cppStringLiteral(s.field.name);
      stored += "))";
      // A store added after version 1: older state does not hold it and
      // takes its initialiser (the registry refuses to add one without).
      if (s.since > 1 && s.body.valid()) {
        std::string older = sp.type(s.field.type);
        older += "(";
        older += e_.bodies.expression(s.body);
        older += ")";
        stored = fmt::format("state_version >= {} ? {} : {}", s.since, stored,
                             older);
      }
      decode += sep;
      decode += ".";
      decode += n;
      decode += " = ";
      decode += stored;
    }
    std::string& out = e_.out.privateDefs;
    out += st + " " + name_ + "_initial() {\n  return " + init + "};\n}\n\n";
    out += "nlohmann::json " + name_ + "_encode_state(" +
           param("const " + st + "&", "s", encode) + ") {\n" + encode +
           "  return j;\n}\n\n";
    decode += "}";
    out += st + " " + name_ + "_decode_state(" +
           param("const nlohmann::json&", "j", decode) + ", " +
           param("std::int64_t", "state_version", decode) + ") {\n  return " +
           decode + ";\n}\n\n";
  }

  void invariants() {
    Spelling& sp = e_.source;
    std::string st = name_ + "::State";
    std::string checks;
    for (const check::InvariantInfo& inv : a_.invariants) {
      if (!inv.body.valid()) continue;
      std::string expr = e_.bodies.expression(inv.body);
      bool key = false;
      for (const check::InvariantInfo* k : keyInvariants_) key |= k == &inv;
      if (key) {
        sp.useHeader("<herald/errors.hpp>");
        checks +=
            "  if (!(" + expr + "))\n    throw herald::HandlerFailure(" +
            cppStringLiteral("invariant '" + inv.name + "' does not hold") +
            ");\n";
        continue;
      }
      std::string& defs = e_.out.privateDefs;
      defs += "bool " + name_ + "_invariant_" + cppName(inv.name);
      defs += '(';
      defs += param("const " + st + "&", "s", expr);
      defs += ") {\n  return " + expr + ";\n}\n\n";
    }
    if (keyInvariants_.empty()) return;
    e_.out.privateDefs += "void " + name_ + "_check_invariants(" +
                          param("const " + st + "&", "s", checks) + ", " +
                          keyParam(sp, checks) + ") {\n" + checks + "}\n\n";
  }

  void handle() {
    Spelling& sp = e_.source;
    std::string& out = e_.out.publicDefs;
    out += name_ + " " + name_ + "::at(herald::Runtime& rt, Key " + keyName_ +
           ") { return " + name_ + "(rt, std::move(" + keyName_ + ")); }\n\n";
    out += name_ + "::" + name_ + "(herald::Runtime& rt, Key " + keyName_ +
           ")\n    : key_(std::move(" + keyName_ +
           ")), ref_(rt, kind(), key_text(key_)) {}\n\n";
    for (const HandlerInfo& h : a_.handlers) {
      std::string call = handlerCall(h, "key_", Emitter::args(h.params));
      std::string check = checkCall("key_");
      bool value = h.result != nullptr && h.result->kind != TypeKind::Unit &&
                   h.result->kind != TypeKind::Never;
      std::string body;
      if (!value)
        body = "    " + call + ";\n" + indent(check, 4);
      else if (check.empty())
        body = "    return " + call + ";\n";
      else
        body = "    auto result = " + call + ";\n" + indent(check, 4) +
               "    return result;\n";
      body = "  return ref_.call(" + cppStringLiteral(h.name) +
             ", [&](herald::Invocation& tx, State& s) {\n" + std::move(body);
      body += "  });\n";
      out += sp.result(h.result) + " " + name_ + "::" + cppName(h.name) + "(" +
             hostParams(sp, h, &body) + ") {\n" + body + "}\n\n";
      if (!messageable(h)) continue;
      std::string ps = Emitter::params(sp, h.params);
      out += "void " + name_ + "::Ref::" + cppName(h.name) +
             "(herald::Invocation& tx" + (ps.empty() ? "" : ", " + ps) +
             ") const {\n  nlohmann::json args;\n  "
             "herald::wire::set_object(args);\n";
      for (const FieldInfo& p : h.params)
        out += "  herald::wire::put(herald::wire::member(args, " +
               cppStringLiteral(p.name) + "), " + cppName(p.name) + ");\n";
      out += "  tx.send(" + name_ + "::kind(), " + name_ + "::key_text(key), " +
             cppStringLiteral(h.name) + ", std::move(args));\n}\n\n";
    }
    out += name_ + "::State " + name_ +
           "::state() const { return ref_.state(); }\n\n";
    // A Ref (a store or a parameter of type Ref[A]) travels as its key.
    std::string ref = e_.global(a_) + "::Ref";
    std::string serializer = "nlohmann::adl_serializer<" + ref + ">";
    e_.out.refCodecs +=
        "template <>\nstruct " + serializer +
        " {\n  static void to_json(nlohmann::json& j, const " + ref +
        "& v) { herald::wire::put(j, v.key); }\n  static " + ref +
        " from_json(const nlohmann::json& j) { return " + ref +
        "{herald::wire::get<" + e_.global(a_) + "::Key>(j)}; }\n};\n\n";
  }

  void keyText() {
    std::string encode = "key";
    std::vector<const Type*> layers;  // outermost first
    const Type* core = keyType_;
    for (std::size_t depth = 0; layered(core) && depth < 64; ++depth) {
      encode += core->named->def == TypeDefKind::Opaque ? ".raw()" : ".value()";
      layers.push_back(core);
      core = core->named->base;
    }
    auto wrap = [&](std::string inner) {
      for (auto it = layers.rbegin(); it != layers.rend(); ++it)
        inner = e_.source.type(*it) +
                ((*it)->named->def == TypeDefKind::Opaque ? "::from_raw("
                                                          : "::from(") +
                std::move(inner) + ")";
      return inner;
    };
    std::string toText;
    std::string fromText;
    if (core->kind == TypeKind::String) {
      toText = "  return " + encode + ";\n";
      fromText = "  return " + wrap("std::string(text)") + ";\n";
    } else if (core->kind == TypeKind::Int) {
      e_.source.useHeader("<charconv>");
      e_.source.useHeader("<stdexcept>");
      toText = "  return std::to_string(" + encode + ");\n";
      fromText =
          "  std::int64_t n = 0;\n  auto [end, ec] = "
          "std::from_chars(text.data(), "
          "text.data() + text.size(), n);\n  if (ec != std::errc() || end != "
          "text.data() + text.size())\n    throw std::invalid_argument(" +
          cppStringLiteral("not a key of " + a_.qualified + ": ") +
          " + std::string(text));\n  return " + wrap("n") + ";\n";
    } else {
      toText = "  return nlohmann::json(key).dump();\n";
      fromText = "  return nlohmann::json::parse(text).get<Key>();\n";
    }
    e_.out.publicDefs += "std::string " + name_ + "::key_text(" +
                         param("const Key&", "key", toText) + ") {\n" + toText +
                         "}\n\n" + name_ + "::Key " + name_ +
                         "::key_from_text(std::string_view text) {\n" +
                         fromText + "}\n\n";
  }

  // A braced list of the spec's entries (each a line of 10 spaces' indent):
  // `{}` when there is none, else one entry a line inside the braces.
  static std::string initList(const std::string& entries) {
    if (entries.empty()) return " {},\n";
    return "\n              {\n" + indent(entries, 6) + "              },\n";
  }

  void kind() {
    std::string invs;
    for (const check::InvariantInfo& inv : a_.invariants) {
      bool key = false;
      for (const check::InvariantInfo* k : keyInvariants_) key |= k == &inv;
      if (key || !inv.body.valid()) continue;
      invs += "          {" + cppStringLiteral(inv.name) + ", &" + name_ +
              "_invariant_" + cppName(inv.name) + "},\n";
    }
    std::string hs;
    for (const HandlerInfo& h : a_.handlers)
      if (messageable(h))
        hs += "          {" + cppStringLiteral(h.name) + ", &" + name_ +
              "_run_" + cppName(h.name) + "},\n";
    e_.out.publicDefs +=
        "const herald::AgentKind<" + name_ + "::State>& " + name_ +
        "::kind() {\n  static const herald::AgentKind<State> instance(\n"
        "      herald::AgentKindSpec<State>{\n          .context = " +
        cppStringLiteral(e_.context.name) +
        ",\n          .name = " + cppStringLiteral(a_.name) +
        ",\n          .state_version = " + std::to_string(a_.stateVersion) +
        ",\n          .initial = &" + name_ +
        "_initial,\n          .encode_state = &" + name_ +
        "_encode_state,\n          .decode_state = &" + name_ +
        "_decode_state,\n          .invariants =" + initList(invs) +
        "          .handlers =" + initList(hs) +
        "      });\n  return instance;\n}\n\n";
  }

  Emitter& e_;
  const AgentInfo& a_;
  std::string name_;
  const Type* keyType_ = nullptr;
  std::string keyName_;
  std::vector<const check::InvariantInfo*> keyInvariants_;
  // The agent fns' prototypes, their names and how many definitions name
  // them.
  struct FnDecl {
    std::string decl;
    std::string name;
    std::size_t defined;
  };
  std::vector<FnDecl> fnDecls_;
};

}  // namespace

void emitAgents(Emitter& e) {
  for (const auto& d : e.context.decls)
    if (const auto* a = llvm::dyn_cast<AgentInfo>(d.get()))
      AgentEmitter(e, *a).emit();
}

}  // namespace herald::codegen
