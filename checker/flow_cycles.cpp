// event-cycle: strongly connected components of the flow graph without the
// subscriptions of `@cycle` services (Tarjan, iterative so a long chain of
// handlers cannot exhaust the stack), one shortest cycle through each
// component's first subscription.
#include "checker/flow_cycles.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <string>

#include <fmt/format.h>

namespace herald::check {

namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

// A subscription of a service marked `@cycle`: every cycle through it is
// intended, so it is left out of the graph searched for cycles.
bool intended(const FlowGraph::Node& node) {
  return node.kind == FlowGraph::NodeKind::Subscription &&
         node.service != nullptr && node.service->cycleIntended;
}

// Successors in compressed form: node v's are adj[start[v] .. start[v+1]).
// Edges into or out of an intended subscription are left out, so a cycle
// found is one that passes through no `@cycle` service.
struct Adjacency {
  std::vector<std::uint32_t> start;
  std::vector<std::uint32_t> adj;

  explicit Adjacency(const FlowGraph& g) : start(g.nodes.size() + 1, 0) {
    const std::size_t n = g.nodes.size();
    auto kept = [&](const FlowGraph::Edge& e) {
      return e.from < n && e.to < n && !intended(g.nodes[e.from]) &&
             !intended(g.nodes[e.to]);
    };
    for (const FlowGraph::Edge& e : g.edges)
      if (kept(e)) ++start[e.from + 1];
    for (std::size_t v = 0; v < n; ++v) start[v + 1] += start[v];
    adj.resize(start[n]);
    std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
    for (const FlowGraph::Edge& e : g.edges)
      if (kept(e)) adj[fill[e.from]++] = e.to;
  }
  [[nodiscard]] std::uint32_t begin(std::uint32_t v) const { return start[v]; }
  [[nodiscard]] std::uint32_t end(std::uint32_t v) const {
    return start[v + 1];
  }
};

// Component id of every node.
std::vector<std::uint32_t> components(const Adjacency& a, std::size_t n) {
  std::vector<std::uint32_t> order(n, kNone);
  std::vector<std::uint32_t> low(n, 0);
  std::vector<std::uint32_t> comp(n, kNone);
  std::vector<std::uint32_t> stack;
  struct Frame {
    std::uint32_t v;
    std::uint32_t next;  // position in adj of the next successor to visit
  };
  std::vector<Frame> calls;
  std::uint32_t counter = 0;
  std::uint32_t comps = 0;
  for (std::uint32_t root = 0; root < n; ++root) {
    if (order[root] != kNone) continue;
    order[root] = low[root] = counter++;
    stack.push_back(root);
    calls.push_back({root, a.begin(root)});
    while (!calls.empty()) {
      Frame& f = calls.back();
      if (f.next < a.end(f.v)) {
        std::uint32_t w = a.adj[f.next++];
        if (order[w] == kNone) {
          order[w] = low[w] = counter++;
          stack.push_back(w);
          calls.push_back({w, a.begin(w)});
        } else if (comp[w] == kNone) {
          // On the stack: part of the component being built.
          low[f.v] = std::min(low[f.v], order[w]);
        }
        continue;
      }
      std::uint32_t v = f.v;
      calls.pop_back();
      if (!calls.empty())
        low[calls.back().v] = std::min(low[calls.back().v], low[v]);
      if (low[v] != order[v]) continue;
      std::uint32_t w = kNone;
      do {
        w = stack.back();
        stack.pop_back();
        comp[w] = comps;
      } while (w != v);
      ++comps;
    }
  }
  return comp;
}

}  // namespace

std::vector<std::vector<std::uint32_t>> eventCycles(const FlowGraph& graph) {
  const std::size_t n = graph.nodes.size();
  Adjacency a(graph);
  std::vector<std::uint32_t> comp = components(a, n);

  // The first subscription (smallest id: nodes are sorted) of each
  // component.
  std::vector<std::uint32_t> firstSub(n, kNone);
  std::vector<std::uint32_t> starts;
  for (std::uint32_t v = 0; v < n; ++v) {
    if (graph.nodes[v].kind != FlowGraph::NodeKind::Subscription) continue;
    if (firstSub[comp[v]] != kNone) continue;
    firstSub[comp[v]] = v;
    starts.push_back(v);
  }

  std::vector<std::vector<std::uint32_t>> cycles;
  std::vector<std::uint32_t> parent(n, kNone);
  std::vector<std::uint32_t> seen(n, kNone);
  for (std::uint32_t s : starts) {
    // Breadth first inside the component: the first node found with an
    // edge back to `s` closes a shortest cycle.
    std::deque<std::uint32_t> queue{s};
    seen[s] = s;
    std::uint32_t closing = kNone;
    while (!queue.empty() && closing == kNone) {
      std::uint32_t v = queue.front();
      queue.pop_front();
      for (std::uint32_t i = a.begin(v); i < a.end(v); ++i) {
        std::uint32_t w = a.adj[i];
        if (comp[w] != comp[s]) continue;
        if (w == s) {
          closing = v;
          break;
        }
        if (seen[w] == s) continue;
        seen[w] = s;
        parent[w] = v;
        queue.push_back(w);
      }
    }
    if (closing == kNone) continue;  // a component of one node, no loop
    std::vector<std::uint32_t> cycle;
    for (std::uint32_t v = closing; v != s; v = parent[v]) cycle.push_back(v);
    cycle.push_back(s);
    std::reverse(cycle.begin(), cycle.end());
    cycles.push_back(std::move(cycle));
  }
  return cycles;
}

void reportEventCycles(Sema& sema, const FlowGraph& graph) {
  for (const std::vector<std::uint32_t>& cycle : eventCycles(graph)) {
    const FlowGraph::Node& start = graph.nodes[cycle.front()];
    if (start.service == nullptr || !start.service->subscription ||
        start.service->subscription->syntax == nullptr)
      continue;
    const ast::Decl* decl = start.service->decl;
    if (decl == nullptr) continue;
    // Only a delivery enters a subscription, so an event precedes it.
    const EventInfo* event = nullptr;
    for (auto it = cycle.rbegin(); it != cycle.rend() && event == nullptr; ++it)
      event = graph.nodes[*it].event;
    if (event == nullptr) continue;
    std::string path;
    for (std::uint32_t v : cycle) path += graph.nodes[v].id + " -> ";
    path += start.id;
    sema.diags
        .report<diag::EventCycle>(start.service->subscription->syntax->range,
                                  event->name)
        .note("the cycle: {}", path)
        .note(
            "each delivery can cause the next; the runtime's depth limit "
            "stops such a cascade, so break the cycle, or mark it as "
            "intended with '@cycle' on a service on it")
        .fixit(
            SourceRange{decl->range.file, decl->range.begin, decl->range.begin},
            "@cycle ");
  }
}

}  // namespace herald::check
