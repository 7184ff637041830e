#include "ir/dump.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <llvm/Support/Casting.h>

#include "ir/dump_body.h"
#include "ir/text.h"

namespace herald::check {
namespace {

class Dumper {
 public:
  Dumper(const Program& program, const SourceManager& sources)
      : program_(program), sources_(sources) {}

  void program(const Program& program) {
    for (const auto& context : program.contexts) this->context(*context);
    flow(program.flow);
  }

  std::string take() { return std::move(out_); }

 private:
  template <typename... A>
  void line(int indent, fmt::format_string<A...> format, A&&... args) {
    out_.append(static_cast<std::size_t>(indent) * 2, ' ');
    out_ += fmt::format(format, std::forward<A>(args)...);
    out_ += '\n';
  }

  std::string source(const ast::Expr* expr) const {
    return expr == nullptr ? std::string("{missing}")
                           : oneLine(sources_, expr->range);
  }

  void context(const ContextInfo& context) {
    line(0, "context {}", context.name);
    for (const ConsumesInfo& consumes : context.consumes)
      this->consumes(consumes);
    for (const auto& decl : context.decls) this->decl(*decl);
    out_ += '\n';
  }

  void consumes(const ConsumesInfo& consumes) {
    std::string text = consumes.target != nullptr ? consumes.target->name
                                                  : std::string("{unknown}");
    if (!consumes.alias.empty()) text += " as " + consumes.alias;
    if (consumes.restricted)
      text += " { " + fmt::format("{}", fmt::join(consumes.only, ", ")) + " }";
    line(1, "consumes {}", text);
  }

  void decl(const DeclInfo& decl) {
    switch (decl.kind) {
      case DeclInfoKind::Type:
        return type(llvm::cast<TypeInfo>(decl));
      case DeclInfoKind::Event:
        return event(llvm::cast<EventInfo>(decl));
      case DeclInfoKind::Actor: {
        const auto& actor = llvm::cast<ActorInfo>(decl);
        line(1, "actor {}{}", declText(&actor),
             actor.params.empty() ? std::string() : paramsText(actor.params));
        return;
      }
      case DeclInfoKind::Capability:
        return capability(llvm::cast<CapabilityInfo>(decl));
      case DeclInfoKind::Fn: {
        const auto& fn = llvm::cast<FnInfo>(decl);
        if (listedOnType(fn)) return;
        return this->fn(1, fn, declText(&decl));
      }
      case DeclInfoKind::Agent:
        return agent(llvm::cast<AgentInfo>(decl));
      case DeclInfoKind::Service:
        return service(llvm::cast<ServiceInfo>(decl));
    }
  }

  // A static fn `fn T.name` is printed with its type.
  static bool listedOnType(const FnInfo& fn) {
    if (fn.ownerType == nullptr) return false;
    for (const FnInfo* listed : fn.ownerType->staticFns)
      if (listed == &fn) return true;
    return false;
  }

  std::string refinement(const ast::Expr* expr) const {
    return expr == nullptr ? std::string() : " where " + source(expr);
  }

  void type(const TypeInfo& type) {
    const std::string name = declText(&type);
    switch (type.def) {
      case TypeDefKind::Record:
        line(1, "type {} = record", name);
        fields(2, type.fields);
        break;
      case TypeDefKind::Sum:
        line(1, "type {} = sum", name);
        for (const VariantInfo& variant : type.variants)
          line(2, "| {}{}", variant.name,
               variant.fields.empty() ? std::string()
                                      : paramsText(variant.fields));
        break;
      case TypeDefKind::Opaque:
        line(1, "type {} = opaque {}{}", name, typeText(type.base),
             refinement(type.refinement));
        break;
      case TypeDefKind::Refined:
        line(1, "type {} = refined {}{}", name, typeText(type.base),
             refinement(type.refinement));
        break;
      case TypeDefKind::Alias:
        line(1, "type {} = alias {}", name,
             typeText(type.type != nullptr ? type.type : type.base));
        break;
    }
    for (const FnInfo* fn : type.staticFns)
      if (fn != nullptr) this->fn(2, *fn, declText(fn));
  }

  void fields(int indent, const std::vector<FieldInfo>& fields) {
    for (const FieldInfo& field : fields) {
      std::string text = field.name + ": " + typeText(field.type);
      if (field.defaultValue)
        text += " = " + render(*field.defaultValue);
      else if (field.defaultExpr != nullptr)
        text += " = " + source(field.defaultExpr) + " (not constant)";
      line(indent, "{}", text);
      dumpBody(out_, indent + 1, program_, field.defaultBody);
    }
  }

  void event(const EventInfo& event) {
    line(1, "event {}{}", declText(&event),
         event.pinnedSchema ? fmt::format(" @schema({})", *event.pinnedSchema)
                            : std::string());
    fields(2, event.fields);
  }

  void capability(const CapabilityInfo& capability) {
    line(1, "capability {}", declText(&capability));
    for (const CapabilityOp& op : capability.ops)
      line(2, "fn {}{} -> {}", op.name, paramsText(op.sig.params),
           typeText(op.sig.result));
  }

  // Context-level, static and service-local fns are pure; agent fns carry
  // what they use and commit, merged into their callers.
  void fn(int indent, const FnInfo& fn, const std::string& name) {
    line(indent, "fn {}{} -> {}{}", name, paramsText(fn.sig.params),
         typeText(fn.sig.result), fn.pure() ? " pure" : "");
    if (!fn.given.empty()) line(indent + 1, "given {}", given(fn.given));
    if (!fn.pure()) {
      capabilities(indent + 1, fn.capabilitiesUsed);
      commit(indent + 1, fn.commit);
    }
    dumpBody(out_, indent + 1, program_, fn.body);
  }

  void agent(const AgentInfo& agent) {
    line(1, "agent {}", declText(&agent));
    if (agent.key)
      line(2, "key {}: {}", agent.key->name, typeText(agent.key->type));
    for (const StoreInfo& store : agent.stores) {
      line(2, "store {}: {}{}", store.field.name, typeText(store.field.type),
           store.init == nullptr ? std::string() : " = " + source(store.init));
      dumpBody(out_, 3, program_, store.body);
    }
    for (const InvariantInfo& invariant : agent.invariants) {
      line(2, "invariant {}: {}", invariant.name, source(invariant.condition));
      dumpBody(out_, 3, program_, invariant.body);
    }
    for (const auto& fn : agent.fns) this->fn(2, *fn, fn->name);
    for (const HandlerInfo& handler : agent.handlers) this->handler(handler);
  }

  void service(const ServiceInfo& service) {
    line(1, "service {}{}", declText(&service),
         service.cycleIntended ? " @cycle" : "");
    if (service.subscription) subscription(*service.subscription);
    if (!service.given.empty()) line(2, "given {}", given(service.given));
    for (const auto& fn : service.fns) this->fn(2, *fn, fn->name);
    for (const HandlerInfo& handler : service.handlers) this->handler(handler);
  }

  void subscription(const SubscriptionInfo& subscription) {
    line(2, "from Events({})", declText(subscription.event));
    line(3, "pattern {}", render(subscription.predicate));
    if (subscription.via) line(3, "via {}", viaText(*subscription.via));
  }

  static std::string given(const std::vector<DependencyInfo>& given) {
    std::string text;
    for (const DependencyInfo& dependency : given) {
      if (!text.empty()) text += ", ";
      text += dependency.named
                  ? dependency.name + ": " + typeText(dependency.type)
                  : dependency.name;
    }
    return text;
  }

  void handler(const HandlerInfo& handler) {
    line(2, "on {}{}{} -> {}", handler.isCall ? "call " : "", handler.name,
         paramsText(handler.params), typeText(handler.result));
    if (handler.by != nullptr)
      line(3, "by {}{}",
           handler.byBinder.empty() ? std::string() : handler.byBinder + ": ",
           declText(handler.by));
    if (!handler.given.empty()) line(3, "given {}", given(handler.given));
    capabilities(3, handler.capabilitiesUsed);
    commit(3, handler.commit);
    dumpBody(out_, 3, program_, handler.body);
  }

  void capabilities(int indent,
                    const std::vector<const CapabilityInfo*>& used) {
    std::vector<std::string> names;
    names.reserve(used.size());
    for (const CapabilityInfo* capability : used)
      names.push_back(declText(capability));
    line(indent, "capabilities [{}]", fmt::join(names, ", "));
  }

  void commit(int indent, const CommitShape& commit) {
    if (commit.readOnly()) return line(indent, "commit read-only");
    std::string text = "commit";
    if (!commit.emits.empty()) {
      std::vector<std::string> names;
      for (const EventInfo* event : commit.emits)
        names.push_back(declText(event));
      text += fmt::format(" emits [{}]", fmt::join(names, ", "));
    }
    if (!commit.writes.empty()) {
      std::vector<std::string> names;
      for (const StoreInfo* store : commit.writes)
        names.push_back(store->field.name);
      text += fmt::format(" writes [{}]", fmt::join(names, ", "));
    }
    if (!commit.sends.empty()) {
      std::vector<std::string> names;
      for (const CommitShape::Message& message : commit.sends)
        names.push_back(declText(message.agent) + "." + message.handler->name);
      text += fmt::format(" sends [{}]", fmt::join(names, ", "));
    }
    line(indent, "{}", text);
  }

  static std::string_view nodeKind(FlowGraph::NodeKind kind) {
    switch (kind) {
      case FlowGraph::NodeKind::Handler:
        return "handler";
      case FlowGraph::NodeKind::Event:
        return "event";
      case FlowGraph::NodeKind::Subscription:
        return "subscription";
    }
    return "?";
  }

  static std::string_view edgeKind(FlowGraph::EdgeKind kind) {
    switch (kind) {
      case FlowGraph::EdgeKind::Emits:
        return "emits";
      case FlowGraph::EdgeKind::Delivers:
        return "delivers";
      case FlowGraph::EdgeKind::Sends:
        return "sends";
    }
    return "?";
  }

  void flow(const FlowGraph& flow) {
    line(0, "flow");
    for (const FlowGraph::Node& node : flow.nodes)
      line(1, "node {} {}", nodeKind(node.kind), node.id);
    auto id = [&](std::uint32_t index) {
      return index < flow.nodes.size() ? flow.nodes[index].id
                                       : std::string("{missing}");
    };
    for (const FlowGraph::Edge& edge : flow.edges)
      line(1, "edge {} -{}-> {}{}", id(edge.from), edgeKind(edge.kind),
           id(edge.to),
           edge.label.empty() ? std::string() : " [" + edge.label + "]");
  }

  const Program& program_;
  const SourceManager& sources_;
  std::string out_;
};

}  // namespace

std::string dumpIr(const Program& program, const SourceManager& sources) {
  Dumper dumper(program, sources);
  dumper.program(program);
  return dumper.take();
}

}  // namespace herald::check
