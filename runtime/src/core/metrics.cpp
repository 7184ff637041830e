#include "herald/metrics.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace herald {

LatencyHistogram::Snapshot LatencyHistogram::snapshot() const {
  Snapshot s;
  for (std::size_t i = 0; i < counts_.size(); ++i) {
    s.counts[i] = counts_[i].get();
    s.count += s.counts[i];
  }
  s.sum_seconds = static_cast<double>(sum_ns_.get()) * 1e-9;
  return s;
}

double LatencyHistogram::Snapshot::quantile(double q) const {
  if (count == 0) return 0;
  const double target = q * static_cast<double>(count);
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    seen += counts[i];
    if (static_cast<double>(seen) >= target) return i < kBounds.size() ? kBounds[i] : kBounds.back();
  }
  return kBounds.back();
}

EventTypeMetrics& Metrics::event_type(const std::string& name) {
  std::lock_guard lock(mutex_);
  for (auto& m : event_types_) {
    if (m->event_type == name) return *m;
  }
  event_types_.push_back(std::make_unique<EventTypeMetrics>());
  event_types_.back()->event_type = name;
  return *event_types_.back();
}

SubscriptionMetrics& Metrics::subscription(const std::string& name, const std::string& event_type) {
  std::lock_guard lock(mutex_);
  for (auto& m : subscriptions_) {
    if (m->subscription == name) return *m;
  }
  subscriptions_.push_back(std::make_unique<SubscriptionMetrics>());
  subscriptions_.back()->subscription = name;
  subscriptions_.back()->event_type = event_type;
  return *subscriptions_.back();
}

namespace {

struct TypeTotals {
  std::uint64_t emitted = 0, released = 0, filtered = 0, delivered = 0, deduplicated = 0, retried = 0,
                dead_lettered = 0, aborted = 0;
};

// Per-event-type totals: the type's own counters plus the sums over its
// subscriptions.
std::vector<std::pair<std::string, TypeTotals>> totals(
    const std::vector<std::unique_ptr<EventTypeMetrics>>& types,
    const std::vector<std::unique_ptr<SubscriptionMetrics>>& subs) {
  std::vector<std::pair<std::string, TypeTotals>> out;
  for (const auto& t : types) {
    TypeTotals x;
    x.emitted = t->emitted.get();
    x.released = t->released.get();
    x.deduplicated = t->duplicate_publishes.get();
    x.aborted = t->aborted.get();
    for (const auto& s : subs) {
      if (s->event_type != t->event_type) continue;
      x.filtered += s->filtered.get();
      x.delivered += s->delivered.get();
      x.deduplicated += s->deduplicated.get();
      x.retried += s->retried.get();
      x.dead_lettered += s->dead_lettered.get();
    }
    out.emplace_back(t->event_type, x);
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

std::vector<const SubscriptionMetrics*> sorted(const std::vector<std::unique_ptr<SubscriptionMetrics>>& subs) {
  std::vector<const SubscriptionMetrics*> out;
  out.reserve(subs.size());
  for (const auto& s : subs) out.push_back(s.get());
  std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->subscription < b->subscription; });
  return out;
}

std::string escape_label(std::string_view v) {
  std::string out;
  for (char c : v) {
    if (c == '\\' || c == '"') out.push_back('\\');
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out.push_back(c);
  }
  return out;
}

}  // namespace

nlohmann::json Metrics::snapshot_json() const {
  std::lock_guard lock(mutex_);
  nlohmann::json j;
  j["storeRefused"] = store_refused_.get();
  j["eventTypes"] = nlohmann::json::object();
  for (const auto& [name, x] : totals(event_types_, subscriptions_)) {
    j["eventTypes"][name] = {{"emitted", x.emitted},         {"released", x.released},
                             {"filtered", x.filtered},       {"delivered", x.delivered},
                             {"deduplicated", x.deduplicated}, {"retried", x.retried},
                             {"deadLettered", x.dead_lettered}, {"aborted", x.aborted}};
  }
  j["subscriptions"] = nlohmann::json::object();
  for (const SubscriptionMetrics* s : sorted(subscriptions_)) {
    const auto h = s->latency.snapshot();
    nlohmann::json buckets = nlohmann::json::array();
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i < h.counts.size(); ++i) {
      cumulative += h.counts[i];
      buckets.push_back({{"le", i < LatencyHistogram::kBounds.size() ? nlohmann::json(LatencyHistogram::kBounds[i])
                                                                     : nlohmann::json("+Inf")},
                         {"count", cumulative}});
    }
    j["subscriptions"][s->subscription] = {
        {"eventType", s->event_type},
        {"filtered", s->filtered.get()},
        {"delivered", s->delivered.get()},
        {"deduplicated", s->deduplicated.get()},
        {"retried", s->retried.get()},
        {"deadLettered", s->dead_lettered.get()},
        {"aborted", s->aborted.get()},
        {"lag", s->lag()},
        {"latencySeconds",
         {{"count", h.count}, {"sum", h.sum_seconds}, {"p50", h.quantile(0.5)}, {"p99", h.quantile(0.99)},
          {"buckets", buckets}}}};
  }
  return j;
}

std::string Metrics::snapshot_prometheus() const {
  std::lock_guard lock(mutex_);
  std::string out;
  out += fmt::format(
      "# HELP herald_store_refused_total Work left pending because the store refused its writes "
      "retry.max_attempts times in a row.\n# TYPE herald_store_refused_total counter\n"
      "herald_store_refused_total {}\n",
      store_refused_.get());
  const auto type_totals = totals(event_types_, subscriptions_);
  auto type_family = [&](std::string_view name, std::string_view help, auto field) {
    out += fmt::format("# HELP herald_events_{}_total {}\n# TYPE herald_events_{}_total counter\n", name, help, name);
    for (const auto& [type, x] : type_totals) {
      out += fmt::format("herald_events_{}_total{{event_type=\"{}\"}} {}\n", name, escape_label(type), field(x));
    }
  };
  type_family("emitted", "Events.emit calls, including those of aborted handlers.", [](const TypeTotals& x) { return x.emitted; });
  type_family("released", "Events committed and appended to their publisher's log.", [](const TypeTotals& x) { return x.released; });
  type_family("filtered", "Event/subscription pairs dropped by a pattern or via.", [](const TypeTotals& x) { return x.filtered; });
  type_family("delivered", "Deliveries whose handler committed.", [](const TypeTotals& x) { return x.delivered; });
  type_family("deduplicated", "Redeliveries and re-publications of a recorded eventId.", [](const TypeTotals& x) { return x.deduplicated; });
  type_family("retried", "Delivery retries scheduled.", [](const TypeTotals& x) { return x.retried; });
  type_family("dead_lettered", "Deliveries moved to a dead-letter store.", [](const TypeTotals& x) { return x.dead_lettered; });
  type_family("aborted", "Emissions discarded because their handler aborted.", [](const TypeTotals& x) { return x.aborted; });

  const auto subs = sorted(subscriptions_);
  auto sub_family = [&](std::string_view name, std::string_view help, auto field) {
    out += fmt::format("# HELP herald_subscription_{}_total {}\n# TYPE herald_subscription_{}_total counter\n", name,
                       help, name);
    for (const SubscriptionMetrics* s : subs) {
      out += fmt::format("herald_subscription_{}_total{{subscription=\"{}\",event_type=\"{}\"}} {}\n", name,
                         escape_label(s->subscription), escape_label(s->event_type), field(*s));
    }
  };
  sub_family("filtered", "Events this subscription's pattern or via rejected.", [](const SubscriptionMetrics& s) { return s.filtered.get(); });
  sub_family("delivered", "Deliveries whose handler committed.", [](const SubscriptionMetrics& s) { return s.delivered.get(); });
  sub_family("deduplicated", "Redeliveries acknowledged without running the handler.", [](const SubscriptionMetrics& s) { return s.deduplicated.get(); });
  sub_family("retried", "Delivery retries scheduled.", [](const SubscriptionMetrics& s) { return s.retried.get(); });
  sub_family("dead_lettered", "Deliveries dead-lettered.", [](const SubscriptionMetrics& s) { return s.dead_lettered.get(); });
  sub_family("aborted", "Delivery attempts that faulted.", [](const SubscriptionMetrics& s) { return s.aborted.get(); });

  out += "# HELP herald_subscription_lag Deliveries queued and not yet acknowledged or dead-lettered.\n"
         "# TYPE herald_subscription_lag gauge\n";
  for (const SubscriptionMetrics* s : subs) {
    out += fmt::format("herald_subscription_lag{{subscription=\"{}\"}} {}\n", escape_label(s->subscription), s->lag());
  }
  out += "# HELP herald_delivery_latency_seconds Commit to delivery latency.\n"
         "# TYPE herald_delivery_latency_seconds histogram\n";
  for (const SubscriptionMetrics* s : subs) {
    const auto h = s->latency.snapshot();
    const std::string label = escape_label(s->subscription);
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i < h.counts.size(); ++i) {
      cumulative += h.counts[i];
      const std::string le = i < LatencyHistogram::kBounds.size() ? fmt::format("{}", LatencyHistogram::kBounds[i]) : "+Inf";
      out += fmt::format("herald_delivery_latency_seconds_bucket{{subscription=\"{}\",le=\"{}\"}} {}\n", label, le, cumulative);
    }
    out += fmt::format("herald_delivery_latency_seconds_sum{{subscription=\"{}\"}} {}\n", label, h.sum_seconds);
    out += fmt::format("herald_delivery_latency_seconds_count{{subscription=\"{}\"}} {}\n", label, h.count);
  }
  return out;
}

}  // namespace herald
