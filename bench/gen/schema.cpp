#include "bench/gen/schema.h"

#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/gen/emit.h"
#include "bench/gen/model.h"

namespace herald::bench {

namespace {

Field field(std::string name, TypeRef type) {
  return {std::move(name), std::move(type), std::nullopt, {}};
}

Field field(std::string name, TypeRef type, Default value) {
  return {std::move(name), std::move(type), std::move(value), {}};
}

Default number(std::string text) {
  return {Default::Kind::Number, {}, std::move(text), {}};
}

Default variant(std::string type, std::string name) {
  return {Default::Kind::Variant, std::move(type), std::move(name), {}};
}

Default none() { return {Default::Kind::None, {}, {}, {}}; }

TypeDecl typeDecl(TypeDecl::Kind kind, std::string name, TypeRef base,
                  std::string predicate) {
  TypeDecl decl;
  decl.kind = kind;
  decl.name = std::move(name);
  decl.base = std::move(base);
  decl.predicate = std::move(predicate);
  return decl;
}

TypeDecl sumDecl(std::string name, std::vector<Variant> variants,
                 bool inlined) {
  TypeDecl decl;
  decl.kind = TypeDecl::Kind::Sum;
  decl.name = std::move(name);
  decl.variants = std::move(variants);
  decl.inlined = inlined;
  return decl;
}

const TypeRef kInt = TypeRef::of(Builtin::Int);
const TypeRef kFloat = TypeRef::of(Builtin::Float);
const TypeRef kString = TypeRef::of(Builtin::String);
const TypeRef kInstant = TypeRef::of(Builtin::Instant);

// `@schema(N)` before or after the name, with or without `=`.
EventDecl eventDecl(std::string name, Rng& rng) {
  EventDecl decl;
  decl.name = std::move(name);
  decl.equals = rng.chance(75);
  switch (rng.range(0, 2)) {
    case 0:
      decl.version = EventDecl::Version::BeforeName;
      decl.schema = rng.range(1, 4);
      break;
    case 1:
      decl.version = EventDecl::Version::AfterName;
      decl.schema = rng.range(1, 4);
      break;
    default:
      decl.version = EventDecl::Version::Absent;
      break;
  }
  return decl;
}

}  // namespace

std::vector<TypeDecl> coreTypes() {
  using K = TypeDecl::Kind;
  std::vector<TypeDecl> types;
  types.push_back(typeDecl(K::Opaque, "UserId", kString, "len(self) <= 128"));
  types.push_back(typeDecl(K::Opaque, "Email", kString, "len(self) <= 254"));
  TypeDecl money = typeDecl(K::Record, "Money", {}, {});
  money.fields = {field("cents", kInt), field("currency", kString)};
  types.push_back(std::move(money));
  types.push_back(sumDecl("Region",
                          {{"Domestic", {}},
                           {"International", {}},
                           {"Offshore", {field("zone", kString)}}},
                          true));
  types.push_back(typeDecl(K::Alias, "Timestamp", kInstant, {}));
  types.push_back(
      typeDecl(K::Refined, "Percent", kInt, "self >= 0 && self <= 100"));
  return types;
}

EventDecl coreEvent() {
  EventDecl event;
  event.name = "UserRegistered";
  event.version = EventDecl::Version::BeforeName;
  event.schema = 1;
  event.equals = true;
  event.fields = {
      field("userId", TypeRef::decl("UserId")),
      field("email", TypeRef::decl("Email")),
      field("region", TypeRef::decl("Region"), variant("Region", "Domestic")),
      field("referrer", TypeRef::option(TypeRef::decl("UserId")), none()),
      field("at", kInstant),
  };
  return event;
}

TypeDecl channelType(const std::string& name) {
  return sumDecl(name, {{"Mail", {}}, {"Text", {}}, {"Push", {}}, {"Web", {}}},
                 true);
}

TypeDecl inboxIdType(const std::string& name) {
  return typeDecl(TypeDecl::Kind::Opaque, name, kString, {});
}

std::vector<TypeDecl> entityTypes(const Entity& x, Rng& rng) {
  using K = TypeDecl::Kind;
  std::vector<TypeDecl> types;
  std::string idPredicate;
  if (rng.chance(50)) {
    idPredicate =
        fmt::format("len(self) <= {}", rng.pick(std::vector<int>{32, 64, 128}));
  }
  types.push_back(typeDecl(K::Opaque, x.name + "Id", kString, idPredicate));
  types.push_back(typeDecl(
      K::Refined, x.name + "Qty", kInt,
      "self > 0 && self <= " +
          rng.pick(std::vector<std::string>{"100", "10_000", "1_000_000"})));
  types.push_back(typeDecl(K::Alias, x.name + "Stamp", kInstant, {}));
  TypeDecl line = typeDecl(K::Record, x.name + "Line", {}, {});
  line.inlined = rng.chance(50);
  line.fields = {field("sku", kString),
                 field("quantity", TypeRef::decl(x.name + "Qty")),
                 field("price", TypeRef::decl("Money"))};
  if (!line.inlined) line.fields[1].comment = "never zero";
  types.push_back(std::move(line));
  types.push_back(sumDecl(
      x.name + "Priority",
      {{"Low", {}}, {"Normal", {}}, {"High", {}}, {"Urgent", {}}}, true));
  types.push_back(sumDecl(x.name + "Status",
                          {{"Draft", {}},
                           {"Active", {field("since", kInstant)}},
                           {"Held", {field("reason", kString)}},
                           {"Closed", {}}},
                          false));
  return types;
}

std::vector<EventDecl> entityEvents(const Entity& x, Rng& rng) {
  const TypeRef id = TypeRef::decl(x.name + "Id");
  const TypeRef owner = TypeRef::decl("UserId");
  const TypeRef money = TypeRef::decl("Money");
  std::vector<EventDecl> events;

  EventDecl opened = eventDecl(eventName(x, EventKind::Opened), rng);
  opened.fields = {
      field(x.lower + "Id", id),
      field("owner", owner),
      field("amount", money),
      field("region", TypeRef::decl("Region"),
            variant("Region", rng.pick(std::vector<std::string>{
                                  "Domestic", "International"}))),
      field("priority", TypeRef::decl(x.name + "Priority"),
            variant(x.name + "Priority", "Normal")),
      field("quantity", TypeRef::decl(x.name + "Qty"), number("1")),
      field("note", TypeRef::option(kString), none()),
      field("at", kInstant),
  };
  opened.fields[6].comment = "added in a later version";
  events.push_back(std::move(opened));

  EventDecl changed = eventDecl(eventName(x, EventKind::StatusChanged), rng);
  changed.fields = {
      field(x.lower + "Id", id),
      field("owner", owner),
      field("status", TypeRef::decl(x.name + "Status")),
      field("revision", kInt, number("0")),
      field("at", kInstant),
  };
  events.push_back(std::move(changed));

  EventDecl closed = eventDecl(eventName(x, EventKind::Closed), rng);
  Default total{
      Default::Kind::Record,
      "Money",
      {},
      {{"cents", "0"}, {"currency", "\"" + pickCurrency(rng) + "\""}}};
  Default retry{Default::Kind::Some, {}, std::to_string(rng.range(0, 3)), {}};
  // Both numbers in one call, in the order the compiler evaluates them, as
  // the generator always did.
  Default weight =
      number(fmt::format("{}.{}", rng.range(0, 3), rng.range(0, 9)));
  closed.fields = {
      field(x.lower + "Id", id),
      field("owner", owner),
      field("total", money, std::move(total)),
      field("lines", kInt, number("0")),
      field("retry", TypeRef::option(kInt), std::move(retry)),
      field("weight", kFloat, std::move(weight)),
      field("at", kInstant),
  };
  events.push_back(std::move(closed));
  return events;
}

}  // namespace herald::bench
