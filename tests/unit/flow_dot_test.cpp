// The Graphviz text of `heraldc graph` on a hand-built flow graph: clusters,
// node shapes and labels, edge labels, and escaping of what a pattern can
// hold (string literals with quotes and backslashes).
#include "checker/flow_dot.h"

#include <memory>
#include <string>

#include <doctest/doctest.h>

#include "ir/program.h"

using namespace herald::check;

namespace {

template <typename T>
T* addDecl(ContextInfo& context, const std::string& name) {
  auto decl = std::make_unique<T>();
  decl->name = name;
  decl->qualified = context.name + "." + name;
  decl->context = &context;
  T* raw = decl.get();
  context.decls.push_back(std::move(decl));
  return raw;
}

bool hasLine(const std::string& text, const std::string& line) {
  return ("\n" + text).find("\n" + line + "\n") != std::string::npos;
}

}  // namespace

TEST_CASE("dotEscape escapes quotes and backslashes and breaks lines") {
  CHECK(dotEscape("plain") == "plain");
  CHECK(dotEscape(R"x(a "b" \c)x") == R"x(a \"b\" \\c)x");
  CHECK(dotEscape("one\ntwo") == R"x(one\ntwo)x");
}

TEST_CASE("flowGraphDot draws contexts, nodes and labelled edges") {
  Program program;
  auto shop = std::make_unique<ContextInfo>();
  shop->name = "shop";
  auto idle = std::make_unique<ContextInfo>();
  idle->name = "shop.idle";
  auto* agent = addDecl<AgentInfo>(*shop, "Cart");
  agent->handlers.emplace_back();
  agent->handlers.back().name = "checkout";
  auto* event = addDecl<EventInfo>(*shop, "Paid");
  auto* service = addDecl<ServiceInfo>(*shop, "OnPaid");
  service->handlers.emplace_back();
  service->handlers.back().name = "event";
  SubscriptionInfo subscription;
  subscription.event = event;
  subscription.patternText = R"x({ note: "say \"hi\" \\", .. })x";
  subscription.via = VersionRange{2, std::nullopt};
  const std::string pattern = subscription.patternText;
  service->subscription = std::move(subscription);

  FlowGraph& flow = program.flow;
  flow.nodes.push_back({FlowGraph::NodeKind::Handler, "shop.Cart.checkout",
                        shop.get(), &agent->handlers[0], nullptr, nullptr,
                        agent});
  flow.nodes.push_back({FlowGraph::NodeKind::Subscription, "shop.OnPaid",
                        shop.get(), &service->handlers[0], nullptr, service,
                        nullptr});
  flow.nodes.push_back({FlowGraph::NodeKind::Event, "shop.Paid", shop.get(),
                        nullptr, event, nullptr, nullptr});
  flow.edges.push_back({FlowGraph::EdgeKind::Emits, 0, 2, ""});
  flow.edges.push_back({FlowGraph::EdgeKind::Sends, 1, 0, ""});
  flow.edges.push_back({FlowGraph::EdgeKind::Delivers, 2, 1, pattern});
  program.contexts.push_back(std::move(shop));
  program.contexts.push_back(std::move(idle));

  const std::string dot = flowGraphDot(program);
  INFO(dot);
  CHECK(dot.rfind("digraph herald_flow {\n", 0) == 0);
  CHECK(hasLine(dot, R"x(  subgraph "cluster_shop" {)x"));
  CHECK(hasLine(dot, R"x(    label="shop";)x"));
  CHECK(hasLine(
      dot,
      R"x(    "shop.Cart.checkout" [label="Cart.checkout", shape=box, style=rounded];)x"));
  CHECK(hasLine(
      dot,
      R"x(    "shop.Paid" [label="Paid", shape=ellipse, style=filled, fillcolor=lightyellow];)x"));
  CHECK(hasLine(
      dot,
      R"x(    "shop.OnPaid" [label="OnPaid\nPaid { note: \"say \\\"hi\\\" \\\\\", .. }\nvia schema(2..)", shape=tab];)x"));
  // A context outside the event flow still shows as a cluster.
  CHECK(hasLine(dot, R"x(  subgraph "cluster_shop.idle" {)x"));
  CHECK(hasLine(dot,
                R"x(  "shop.Cart.checkout" -> "shop.Paid" [label="emits"];)x"));
  CHECK(hasLine(
      dot,
      R"x(  "shop.OnPaid" -> "shop.Cart.checkout" [label="sends", style=dashed];)x"));
  CHECK(hasLine(
      dot,
      R"x(  "shop.Paid" -> "shop.OnPaid" [label="{ note: \"say \\\"hi\\\" \\\\\", .. }"];)x"));
  CHECK(dot.substr(dot.size() - 2) == "}\n");
}
