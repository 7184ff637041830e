#include "checker/flow_dot.h"

#include <fmt/format.h>

#include "ir/text.h"

namespace herald::check {

std::string dotEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        break;
      default:
        out += c;
    }
  }
  return out;
}

namespace {

std::string dotQuoted(std::string_view text) {
  return "\"" + dotEscape(text) + "\"";
}

// `Order.markPaid`: the owner's short name and the handler.
std::string handlerLabel(const FlowGraph::Node& node) {
  if (node.handler == nullptr) return node.id;
  const DeclInfo* owner = node.agent;
  if (owner == nullptr) owner = node.service;
  return owner == nullptr ? node.handler->name
                          : owner->name + "." + node.handler->name;
}

// The service, then what it subscribes to as written, then its `via`.
std::string subscriptionLabel(const FlowGraph::Node& node) {
  if (node.service == nullptr) return node.id;
  std::string label = node.service->name;
  if (!node.service->subscription) return label;
  const SubscriptionInfo& subscription = *node.service->subscription;
  std::string pattern = subscription.event != nullptr
                            ? subscription.event->name
                            : std::string("{unresolved}");
  if (!subscription.patternText.empty())
    pattern += " " + subscription.patternText;
  label += "\n" + pattern;
  if (subscription.via) label += "\nvia " + viaText(*subscription.via);
  return label;
}

std::string nodeLine(const FlowGraph::Node& node) {
  switch (node.kind) {
    case FlowGraph::NodeKind::Handler:
      return fmt::format("{} [label={}, shape=box, style=rounded];",
                         dotQuoted(node.id), dotQuoted(handlerLabel(node)));
    case FlowGraph::NodeKind::Event:
      return fmt::format(
          "{} [label={}, shape=ellipse, style=filled, fillcolor=lightyellow];",
          dotQuoted(node.id),
          dotQuoted(node.event != nullptr ? node.event->name : node.id));
    case FlowGraph::NodeKind::Subscription:
      return fmt::format("{} [label={}, shape=tab];", dotQuoted(node.id),
                         dotQuoted(subscriptionLabel(node)));
  }
  return {};
}

std::string edgeLabel(const FlowGraph::Edge& edge) {
  switch (edge.kind) {
    case FlowGraph::EdgeKind::Emits:
      return "emits";
    case FlowGraph::EdgeKind::Delivers:
      return edge.label.empty() ? std::string("delivers") : edge.label;
    case FlowGraph::EdgeKind::Sends:
      return "sends";
  }
  return {};
}

std::string edgeStyle(FlowGraph::EdgeKind kind) {
  switch (kind) {
    case FlowGraph::EdgeKind::Emits:
    case FlowGraph::EdgeKind::Delivers:
      return {};
    case FlowGraph::EdgeKind::Sends:
      return ", style=dashed";
  }
  return {};
}

}  // namespace

std::string flowGraphDot(const Program& program) {
  const FlowGraph& flow = program.flow;
  std::string out = "digraph herald_flow {\n";
  out += "  rankdir=LR;\n";
  out += "  graph [fontname=\"Helvetica\"];\n";
  out += "  node [fontname=\"Helvetica\"];\n";
  out += "  edge [fontname=\"Helvetica\", fontsize=10];\n";
  for (const auto& context : program.contexts) {
    out += fmt::format("  subgraph {} {{\n",
                       dotQuoted("cluster_" + context->name));
    out += fmt::format("    label={};\n", dotQuoted(context->name));
    bool any = false;
    for (const FlowGraph::Node& node : flow.nodes) {
      if (node.context != context.get()) continue;
      out += "    " + nodeLine(node) + "\n";
      any = true;
    }
    // Graphviz draws no empty cluster; a context outside the event flow
    // still shows, with a note saying so.
    if (!any)
      out += fmt::format(
          "    {} [label=\"no event flow\", shape=plaintext, fontsize=10];\n",
          dotQuoted(context->name + ":none"));
    out += "  }\n";
  }
  for (const FlowGraph::Node& node : flow.nodes)
    if (node.context == nullptr) out += "  " + nodeLine(node) + "\n";
  for (const FlowGraph::Edge& edge : flow.edges) {
    if (edge.from >= flow.nodes.size() || edge.to >= flow.nodes.size())
      continue;
    out += fmt::format("  {} -> {} [label={}{}];\n",
                       dotQuoted(flow.nodes[edge.from].id),
                       dotQuoted(flow.nodes[edge.to].id),
                       dotQuoted(edgeLabel(edge)), edgeStyle(edge.kind));
  }
  out += "}\n";
  return out;
}

}  // namespace herald::check
