// The static event-flow graph: which handler emits which event, which
// subscription receives it, and which agent handlers a handler messages.
// Read from the commit shapes body checking filled in; cycles are reported
// by flow_cycles.cpp.
#include <algorithm>
#include <string>
#include <tuple>
#include <utility>

#include <llvm/ADT/DenseMap.h>
#include <llvm/Support/Casting.h>

#include "checker/flow_cycles.h"
#include "checker/sema.h"
#include "checker/subscription_check.h"

namespace herald::check {

namespace {

using Node = FlowGraph::Node;
using NodeKind = FlowGraph::NodeKind;
using Edge = FlowGraph::Edge;
using EdgeKind = FlowGraph::EdgeKind;

void addNodes(const ContextInfo& ctx, std::vector<Node>& nodes) {
  for (const auto& d : ctx.decls) {
    if (const auto* event = llvm::dyn_cast<EventInfo>(d.get())) {
      Node n{NodeKind::Event, event->qualified, &ctx};
      n.event = event;
      nodes.push_back(std::move(n));
    } else if (const auto* agent = llvm::dyn_cast<AgentInfo>(d.get())) {
      for (const HandlerInfo& h : agent->handlers) {
        Node n{NodeKind::Handler, agent->qualified + "." + h.name, &ctx};
        n.handler = &h;
        n.agent = agent;
        nodes.push_back(std::move(n));
      }
    } else if (const auto* service = llvm::dyn_cast<ServiceInfo>(d.get())) {
      if (service->subscription) {
        // The service is the subscriber; its handlers other than the one
        // `on event` are errors (event-handler-shape) and never run.
        Node n{NodeKind::Subscription, service->qualified, &ctx};
        n.handler = eventHandler(*service);
        n.service = service;
        nodes.push_back(std::move(n));
        continue;
      }
      for (const HandlerInfo& h : service->handlers) {
        Node n{NodeKind::Handler, service->qualified + "." + h.name, &ctx};
        n.handler = &h;
        n.service = service;
        nodes.push_back(std::move(n));
      }
    }
  }
}

std::string deliveryLabel(const SubscriptionInfo& sub) {
  std::string label = sub.patternText;
  if (sub.syntax != nullptr && sub.syntax->via != nullptr) {
    if (!label.empty()) label += ' ';
    label += "via " + viaText(*sub.syntax->via);
  }
  return label;
}

}  // namespace

void buildFlowGraph(Sema& sema) {
  FlowGraph& graph = sema.program.flow;
  graph = FlowGraph{};
  for (const auto& ctx : sema.program.contexts) addNodes(*ctx, graph.nodes);
  std::stable_sort(graph.nodes.begin(), graph.nodes.end(),
                   [](const Node& a, const Node& b) {
                     return std::tie(a.id, a.kind) < std::tie(b.id, b.kind);
                   });

  // Pointer-keyed maps are only looked up, never iterated.
  llvm::DenseMap<const void*, std::uint32_t> index;
  for (std::uint32_t i = 0; i < graph.nodes.size(); ++i) {
    const Node& n = graph.nodes[i];
    switch (n.kind) {
      case NodeKind::Event:
        index[n.event] = i;
        break;
      case NodeKind::Handler:
        index[n.handler] = i;
        break;
      case NodeKind::Subscription:
        index[n.service] = i;
        break;
    }
  }
  auto lookup = [&](const void* key) -> std::optional<std::uint32_t> {
    auto it = index.find(key);
    if (it == index.end()) return std::nullopt;
    return it->second;
  };

  for (std::uint32_t i = 0; i < graph.nodes.size(); ++i) {
    const Node& n = graph.nodes[i];
    if (n.kind == NodeKind::Subscription && n.service->subscription &&
        n.service->subscription->event != nullptr) {
      const SubscriptionInfo& sub = *n.service->subscription;
      if (auto from = lookup(sub.event))
        graph.edges.push_back(
            Edge{EdgeKind::Delivers, *from, i, deliveryLabel(sub)});
    }
    if (n.handler == nullptr) continue;
    for (const EventInfo* event : n.handler->commit.emits)
      if (auto to = lookup(event))
        graph.edges.push_back(Edge{EdgeKind::Emits, i, *to, {}});
    for (const CommitShape::Message& m : n.handler->commit.sends) {
      if (m.agent == nullptr) continue;
      if (auto to = lookup(m.handler))
        graph.edges.push_back(Edge{EdgeKind::Sends, i, *to, {}});
    }
  }
  auto key = [](const Edge& e) { return std::tie(e.from, e.to, e.kind); };
  std::sort(graph.edges.begin(), graph.edges.end(),
            [&](const Edge& a, const Edge& b) { return key(a) < key(b); });
  // A handler that sends the same message twice still has one edge.
  graph.edges.erase(std::unique(graph.edges.begin(), graph.edges.end(),
                                [&](const Edge& a, const Edge& b) {
                                  return key(a) == key(b);
                                }),
                    graph.edges.end());

  reportEventCycles(sema, graph);
}

}  // namespace herald::check
