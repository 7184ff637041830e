#include "bench/gen/model.h"

#include <cctype>

namespace herald::bench {

std::string eventName(const Entity& entity, EventKind kind) {
  switch (kind) {
    case EventKind::Opened:
      return entity.name + "Opened";
    case EventKind::StatusChanged:
      return entity.name + "StatusChanged";
    case EventKind::Closed:
      return entity.name + "Closed";
  }
  return entity.name;
}

std::string Consume::ref(std::string_view name, bool qualify) const {
  switch (form) {
    case ConsumeForm::Plain:
      if (qualify) return context->path + "." + std::string(name);
      return std::string(name);
    case ConsumeForm::Alias:
      return context->last + "." + std::string(name);
    case ConsumeForm::Only:
      return std::string(name);
  }
  return std::string(name);
}

std::size_t Consume::usableEntities() const {
  switch (form) {
    case ConsumeForm::Plain:
    case ConsumeForm::Alias:
      return context->entities.size();
    case ConsumeForm::Only:
      return 1;
  }
  return 1;
}

std::vector<std::string> Consume::onlyNames() const {
  const Entity& first = context->entities.front();
  std::vector<std::string> names;
  for (EventKind kind : kEventKinds) names.push_back(eventName(first, kind));
  names.push_back(first.name + "Status");
  names.push_back(first.name + "Priority");
  names.push_back(context->inbox());
  names.push_back(context->inboxId());
  names.push_back(context->pricing());
  return names;
}

namespace {

// Nouns that are neither keywords nor built-in or core names once
// lower-cased, grouped by the area of the context that owns them.
constexpr const char* kWords[][2] = {
    {"commerce", "Order"},
    {"commerce", "Cart"},
    {"commerce", "Coupon"},
    {"commerce", "Listing"},
    {"commerce", "Auction"},
    {"commerce", "Bid"},
    {"commerce", "Review"},
    {"logistics", "Shipment"},
    {"logistics", "Parcel"},
    {"logistics", "Pallet"},
    {"logistics", "Route"},
    {"logistics", "Delivery"},
    {"logistics", "Warehouse"},
    {"billing", "Invoice"},
    {"billing", "Payment"},
    {"billing", "Refund"},
    {"billing", "Payout"},
    {"billing", "Statement"},
    {"billing", "Meter"},
    {"finance", "Ledger"},
    {"finance", "Transfer"},
    {"finance", "Loan"},
    {"finance", "Budget"},
    {"finance", "Expense"},
    {"support", "Ticket"},
    {"support", "Incident"},
    {"support", "Alert"},
    {"support", "Inquiry"},
    {"travel", "Booking"},
    {"travel", "Reservation"},
    {"travel", "Trip"},
    {"travel", "Itinerary"},
    {"fleet", "Vehicle"},
    {"fleet", "Driver"},
    {"fleet", "Permit"},
    {"fleet", "Inspection"},
    {"insurance", "Claim"},
    {"insurance", "Policy"},
    {"insurance", "Quote"},
    {"realty", "Lease"},
    {"realty", "Tenant"},
    {"realty", "Viewing"},
    {"media", "Playlist"},
    {"media", "Episode"},
    {"media", "Channel"},
    {"learning", "Course"},
    {"learning", "Lesson"},
    {"learning", "Exam"},
    {"health", "Patient"},
    {"health", "Visit"},
    {"health", "Prescription"},
    {"dining", "Recipe"},
    {"dining", "Menu"},
    {"dining", "Batch"},
    {"hr", "Candidate"},
    {"hr", "Interview"},
    {"hr", "Offer"},
    {"hr", "Shift"},
    {"marketing", "Campaign"},
    {"marketing", "Lead"},
    {"marketing", "Donation"},
    {"ops", "Deployment"},
    {"ops", "Release"},
    {"ops", "Sensor"},
    {"ops", "Device"},
    {"ops", "Asset"},
    {"ops", "License"},
    {"energy", "Tariff"},
    {"energy", "Reading"},
    {"energy", "Outage"},
};

std::string lowerFirst(std::string text) {
  text[0] =
      static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  return text;
}

// English plural of a noun, for `Ref` dependency names ("Deliveries").
std::string plural(std::string_view noun) {
  std::string text(noun);
  const auto endsWith = [&](std::string_view tail) {
    return text.size() >= tail.size() &&
           text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
  };
  if (endsWith("y") && !endsWith("ay") && !endsWith("ey")) {
    text.pop_back();
    return text + "ies";
  }
  if (endsWith("ch") || endsWith("sh") || endsWith("s") || endsWith("x")) {
    return text + "es";
  }
  return text + "s";
}

}  // namespace

NamePool::NamePool(Rng& rng) {
  for (const auto& w : kWords) words_.push_back({w[0], w[1]});
  rng.shuffle(words_);
}

NamePool::Noun NamePool::next() {
  if (cursor_ == words_.size()) {
    cursor_ = 0;
    ++round_;
  }
  const Word& w = words_[cursor_++];
  std::string name = w.noun;
  std::string many = plural(w.noun);
  if (round_ > 1) {
    name += std::to_string(round_);
    many += std::to_string(round_);
  }
  Entity entity{name, lowerFirst(name), many};
  return {w.area, std::move(entity)};
}

}  // namespace herald::bench
