// The usefulness algorithm: a pattern vector q is useful for a matrix P of
// earlier rows when some value matches q and no row of P. An arm is
// reachable when it is useful for the arms above it; the arms are
// exhaustive when `_` is not useful for all of them, and the witnesses of
// its usefulness are the missing patterns.
//
// Bool, Option, sums, records and events have finitely many constructors;
// other types (Int, String, ...) are matched by literals and ranges, which
// never cover every value: a literal or range arm is unreachable only when
// one earlier row alone covers it. Work is counted in rows visited; the top
// matrix is indexed by head constructor, so arms with distinct literals or
// variants cost little each however many there are.
#include "checker/exhaustiveness.h"

#include <algorithm>
#include <limits>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <llvm/ADT/SmallVector.h>

namespace herald::check {

namespace {

// Enough for any match a person writes; a hostile wide match stops here.
constexpr std::uint64_t kWorkBudget = 4'000'000;
constexpr std::size_t kMaxWitnesses = 4;
constexpr int kMaxPeel = 64;
constexpr int kMaxDepth = 1000;

using Pat = const ResolvedPattern*;  // null: matches anything
using Row = llvm::SmallVector<Pat, 4>;
using Matrix = std::vector<Row>;
using Types = llvm::SmallVector<const Type*, 4>;

// A missing value's pattern; ctor < 0 is `_`.
struct Witness {
  const Type* type = nullptr;
  int ctor = -1;
  std::vector<Witness> subs;
};
using WitnessRow = std::vector<Witness>;

// The head of a pattern, with bindings and reported patterns read as `_`.
Pat norm(Pat p) {
  if (p == nullptr) return nullptr;
  switch (p->kind) {
    case ResolvedPattern::Kind::Wildcard:
    case ResolvedPattern::Kind::Binding:
    case ResolvedPattern::Kind::Invalid:
      return nullptr;
    case ResolvedPattern::Kind::Literal:
    case ResolvedPattern::Kind::Range:
    case ResolvedPattern::Kind::None:
    case ResolvedPattern::Kind::Some:
    case ResolvedPattern::Kind::Variant:
    case ResolvedPattern::Kind::Record:
    case ResolvedPattern::Kind::Or:
      return p;
  }
  return nullptr;
}

// The type whose constructors values are built with: opaque and refined
// types are matched as their base.
const Type* peel(const Type* t) {
  for (int i = 0; i < kMaxPeel && t != nullptr && t->kind == TypeKind::Named &&
                  t->named != nullptr &&
                  (t->named->def == TypeDefKind::Refined ||
                   t->named->def == TypeDefKind::Opaque ||
                   t->named->def == TypeDefKind::Alias) &&
                  t->named->base != nullptr;
       ++i)
    t = t->named->base;
  return t;
}

llvm::ArrayRef<FieldInfo> recordFields(const Type* t) {
  if (t->kind == TypeKind::Event && t->event != nullptr)
    return t->event->fields;
  if (t->kind == TypeKind::Named && t->named != nullptr &&
      t->named->def == TypeDefKind::Record)
    return t->named->fields;
  return {};
}

bool isRecordLike(const Type* t) {
  return t->kind == TypeKind::Event ||
         (t->kind == TypeKind::Named && t->named != nullptr &&
          t->named->def == TypeDefKind::Record);
}

bool isSumType(const Type* t) {
  return t->kind == TypeKind::Named && t->named != nullptr &&
         t->named->def == TypeDefKind::Sum;
}

// How many constructors `t` has; 0 when its values cannot be enumerated.
std::size_t ctorCount(const Type* t) {
  if (t == nullptr) return 0;
  if (t->kind == TypeKind::Bool || t->kind == TypeKind::Option) return 2;
  if (isSumType(t)) return t->named->variants.size();
  if (isRecordLike(t)) return 1;
  return 0;
}

Types subTypes(const Type* t, std::size_t ctor) {
  Types out;
  if (t->kind == TypeKind::Option) {
    if (ctor == 1) out.push_back(t->arg0);
  } else if (isSumType(t)) {
    for (const FieldInfo& f : t->named->variants[ctor].fields)
      out.push_back(f.type);
  } else if (isRecordLike(t)) {
    for (const FieldInfo& f : recordFields(t)) out.push_back(f.type);
  }
  return out;
}

const ConstValue& unwrapped(const ConstValue& v) {
  const ConstValue* c = &v;
  while (c->kind == ConstValue::Kind::Opaque && !c->children.empty())
    c = &c->children.front();
  return *c;
}

// A head constructor. Finite ones are numbered (false/true, None/Some,
// variants by index, the one constructor of a record); an Int literal is
// the range lo..lo; any other literal is its value.
struct Ctor {
  enum class Kind : std::uint8_t { Finite, Range, Value } kind = Kind::Finite;
  std::size_t index = 0;
  std::int64_t lo = 0;
  std::int64_t hi = 0;
  const ConstValue* value = nullptr;
};

Ctor ctorOf(Pat p) {
  Ctor c;
  switch (p->kind) {
    case ResolvedPattern::Kind::Literal: {
      const ConstValue& v = unwrapped(*p->value);
      if (v.kind == ConstValue::Kind::Bool) {
        c.index = v.boolean ? 1 : 0;
      } else if (v.kind == ConstValue::Kind::Int) {
        c.kind = Ctor::Kind::Range;
        c.lo = c.hi = v.integer;
      } else {
        c.kind = Ctor::Kind::Value;
        c.value = &v;
      }
      return c;
    }
    case ResolvedPattern::Kind::Range:
      c.kind = Ctor::Kind::Range;
      c.lo = p->lo.value_or(std::numeric_limits<std::int64_t>::min());
      c.hi = p->hi.value_or(std::numeric_limits<std::int64_t>::max());
      return c;
    case ResolvedPattern::Kind::Some:
      c.index = 1;
      return c;
    case ResolvedPattern::Kind::Variant:
      c.index = p->variant != nullptr ? p->variant->index : 0;
      return c;
    case ResolvedPattern::Kind::None:
    case ResolvedPattern::Kind::Record:
    case ResolvedPattern::Kind::Wildcard:
    case ResolvedPattern::Kind::Binding:
    case ResolvedPattern::Kind::Invalid:
    case ResolvedPattern::Kind::Or:
      return c;
  }
  return c;
}

// Whether a row whose head is `row` matches every value `q` does.
bool covers(const Ctor& row, const Ctor& q) {
  if (row.kind != q.kind) return false;
  switch (row.kind) {
    case Ctor::Kind::Finite:
      return row.index == q.index;
    case Ctor::Kind::Range:
      return row.lo <= q.lo && q.hi <= row.hi;
    case Ctor::Kind::Value:
      return *row.value == *q.value;
  }
  return false;
}

// The sub-patterns of `p` for its constructor's `arity` fields.
void subPatterns(Pat p, std::size_t arity, Row& out) {
  std::size_t at = out.size();
  out.append(arity, nullptr);
  if (p == nullptr) return;
  if (p->kind == ResolvedPattern::Kind::Some) {
    if (arity == 1 && !p->subs.empty()) out[at] = p->subs.front().pattern;
    return;
  }
  for (const SubPattern& s : p->subs)
    if (s.field < arity) out[at + s.field] = s.pattern;
}

bool irrefutable(Pat p) {
  p = norm(p);
  if (p == nullptr) return true;
  if (p->kind == ResolvedPattern::Kind::Or)
    return std::any_of(
        p->subs.begin(), p->subs.end(),
        [](const SubPattern& alt) { return irrefutable(alt.pattern); });
  if (p->kind != ResolvedPattern::Kind::Record) return false;
  for (const SubPattern& s : p->subs)
    if (!irrefutable(s.pattern)) return false;
  return true;
}

// A top-level Or becomes one row per alternative (none is an Or).
void expandOr(Pat p, llvm::SmallVectorImpl<Pat>& out) {
  Pat h = norm(p);
  if (h != nullptr && h->kind == ResolvedPattern::Kind::Or) {
    for (const SubPattern& alt : h->subs) out.push_back(norm(alt.pattern));
    return;
  }
  out.push_back(h);
}

std::string print(const Witness& w) {
  if (w.ctor < 0 || w.type == nullptr) return "_";
  const Type* t = peel(w.type);
  auto all = [&] {
    for (const Witness& s : w.subs)
      if (s.ctor >= 0) return false;
    return true;
  };
  if (t->kind == TypeKind::Bool) return w.ctor == 1 ? "true" : "false";
  if (t->kind == TypeKind::Option)
    return w.ctor == 0
               ? "None"
               : "Some(" + (w.subs.empty() ? "_" : print(w.subs[0])) + ")";
  if (isSumType(t)) {
    const VariantInfo& v = t->named->variants[static_cast<std::size_t>(w.ctor)];
    if (v.fields.empty()) return v.name;
    if (all()) return v.name + "(..)";
    std::string out = v.name + "(";
    for (std::size_t i = 0; i < w.subs.size(); ++i) {
      if (i != 0) out += ", ";
      out += print(w.subs[i]);
    }
    return out + ")";
  }
  llvm::ArrayRef<FieldInfo> fields = recordFields(t);
  std::string out;
  bool rest = false;
  for (std::size_t i = 0; i < w.subs.size() && i < fields.size(); ++i) {
    if (w.subs[i].ctor < 0) {
      rest = true;
      continue;
    }
    out += (out.empty() ? "" : ", ") + fields[i].name + ": " + print(w.subs[i]);
  }
  if (rest) out += out.empty() ? ".." : ", ..";
  return "{ " + out + " }";
}

}  // namespace

struct ArmMatrix::State {
  const Type* scrutinee = nullptr;
  Matrix rows;
  // The top matrix by head: rows with a finite or literal head by its key,
  // rows with `_` heads, rows with a wider range head.
  std::unordered_map<std::string, std::vector<std::uint32_t>> byHead;
  std::vector<std::uint32_t> wildRows;
  std::vector<std::uint32_t> rangeRows;
  std::uint64_t work = 0;
  int depth = 0;
  bool capped = false;
  bool more = false;
  // For the fallback: an arm matched everything, or every value of a
  // constructor.
  bool anyIrrefutable = false;
  std::vector<bool> wholeCtor;

  bool spend(std::uint64_t n) {
    work += n;
    if (work > kWorkBudget) capped = true;
    return !capped;
  }

  static std::string key(const Ctor& c) {
    switch (c.kind) {
      case Ctor::Kind::Finite:
        return "#" + std::to_string(c.index);
      case Ctor::Kind::Range:
        return "i" + std::to_string(c.lo);
      case Ctor::Kind::Value:
        return "v" + render(*c.value);
    }
    return "";
  }

  // Rows of `m` whose head `c` matches (or any head), heads replaced by
  // their `arity` sub-patterns.
  void specializeRow(const Row& row, const Ctor& c, std::size_t arity,
                     Matrix& out) {
    Pat h = norm(row[0]);
    if (h != nullptr && h->kind == ResolvedPattern::Kind::Or) {
      for (const SubPattern& alt : h->subs) {
        Row r = row;
        r[0] = alt.pattern;
        specializeRow(r, c, arity, out);
      }
      return;
    }
    if (h != nullptr && !covers(ctorOf(h), c)) return;
    Row r;
    subPatterns(h, arity, r);
    r.append(row.begin() + 1, row.end());
    out.push_back(std::move(r));
  }

  Matrix specialize(const Matrix& m, const Ctor& c, std::size_t arity) {
    Matrix out;
    if (!spend(m.size())) return out;
    for (const Row& row : m) specializeRow(row, c, arity, out);
    return out;
  }

  void defaultRow(const Row& row, Matrix& out) {
    Pat h = norm(row[0]);
    if (h != nullptr && h->kind == ResolvedPattern::Kind::Or) {
      for (const SubPattern& alt : h->subs) {
        Row r = row;
        r[0] = alt.pattern;
        defaultRow(r, out);
      }
      return;
    }
    if (h == nullptr) out.emplace_back(row.begin() + 1, row.end());
  }

  void heads(const Row& row, std::vector<bool>& present) {
    Pat h = norm(row[0]);
    if (h == nullptr) return;
    if (h->kind == ResolvedPattern::Kind::Or) {
      for (const SubPattern& alt : h->subs) {
        Row r = row;
        r[0] = alt.pattern;
        heads(r, present);
      }
      return;
    }
    Ctor c = ctorOf(h);
    if (c.kind == Ctor::Kind::Finite && c.index < present.size())
      present[c.index] = true;
  }

  static void wrap(const Type* t, std::size_t ctor, std::size_t arity,
                   WitnessRow&& sub, std::vector<WitnessRow>& out) {
    Witness w;
    w.type = t;
    w.ctor = static_cast<int>(ctor);
    for (std::size_t i = 0; i < arity && i < sub.size(); ++i)
      w.subs.push_back(std::move(sub[i]));
    WitnessRow row;
    row.push_back(std::move(w));
    for (std::size_t i = arity; i < sub.size(); ++i)
      row.push_back(std::move(sub[i]));
    out.push_back(std::move(row));
  }

  void addWitness(std::vector<WitnessRow>& out, WitnessRow&& w) {
    if (out.size() >= kMaxWitnesses) {
      more = true;
      return;
    }
    out.push_back(std::move(w));
  }

  // Whether `q` is useful for `m`; its witnesses in `out` when given.
  bool useful(const Matrix& m, const Row& q, const Types& ts,
              std::vector<WitnessRow>* out) {
    if (!spend(1)) return true;
    // Each column is one level: a record of thousands of fields must not
    // exhaust the stack.
    if (depth >= kMaxDepth) {
      capped = true;
      return true;
    }
    ++depth;
    bool u = usefulAt(m, q, ts, out);
    --depth;
    return u;
  }

  bool usefulAt(const Matrix& m, const Row& q, const Types& ts,
                std::vector<WitnessRow>* out) {
    if (q.empty()) {
      if (!m.empty()) return false;
      if (out != nullptr) out->emplace_back();
      return true;
    }
    Pat h = norm(q[0]);
    if (h != nullptr && h->kind == ResolvedPattern::Kind::Or) {
      bool any = false;
      for (const SubPattern& alt : h->subs) {
        Row r = q;
        r[0] = alt.pattern;
        if (useful(m, r, ts, out)) {
          any = true;
          if (out == nullptr) return true;
        }
      }
      return any;
    }
    const Type* t = peel(ts[0]);
    Types rest(ts.begin() + 1, ts.end());
    if (h != nullptr) {
      Ctor c = ctorOf(h);
      Types sub = c.kind == Ctor::Kind::Finite ? subTypes(t, c.index) : Types{};
      Matrix sm = specialize(m, c, sub.size());
      return useCtor(sm, h, c, t, sub, q, rest, out);
    }
    std::size_t n = ctorCount(t);
    std::vector<bool> present(n, false);
    for (const Row& row : m) heads(row, present);
    return useWildWith(m, present, t, q, rest, out,
                       [&](const Ctor& c, std::size_t arity) {
                         return specialize(m, c, arity);
                       });
  }

  // q's head is the constructor `c` of `h`; `sm` is the matrix specialized
  // by it.
  bool useCtor(const Matrix& sm, Pat h, const Ctor& c, const Type* t,
               const Types& sub, const Row& q, const Types& rest,
               std::vector<WitnessRow>* out) {
    Row sq;
    subPatterns(h, sub.size(), sq);
    sq.append(q.begin() + 1, q.end());
    Types sts = sub;
    sts.append(rest.begin(), rest.end());
    if (out == nullptr) return useful(sm, sq, sts, nullptr);
    std::vector<WitnessRow> found;
    bool u = useful(sm, sq, sts, &found);
    for (WitnessRow& w : found) {
      if (c.kind == Ctor::Kind::Finite) {
        wrap(t, c.index, sub.size(), std::move(w), *out);
      } else {
        // A literal is not a constructor a witness can name: `_`.
        WitnessRow row;
        row.emplace_back();
        row.insert(row.end(), w.begin(), w.end());
        out->push_back(std::move(row));
      }
    }
    return u;
  }

  // q's head is `_`; `present` says which constructors of `t` head some
  // row of `m`, and `specialized` yields `m` specialized by one of them.
  template <typename Specialize>
  bool useWildWith(const Matrix& m, const std::vector<bool>& present,
                   const Type* t, const Row& q, const Types& rest,
                   std::vector<WitnessRow>* out, Specialize&& specialized) {
    std::size_t n = present.size();
    bool complete = n > 0;
    for (bool p : present) complete = complete && p;
    if (complete) {
      bool any = false;
      for (std::size_t i = 0; i < n; ++i) {
        Ctor c;
        c.index = i;
        Types sub = subTypes(t, i);
        Matrix sm = specialized(c, sub.size());
        Row wildHead;
        wildHead.push_back(nullptr);
        wildHead.append(q.begin() + 1, q.end());
        if (useCtor(sm, nullptr, c, t, sub, wildHead, rest, out)) {
          any = true;
          if (out == nullptr || out->size() >= kMaxWitnesses) return true;
        }
        if (capped) return true;
      }
      return any;
    }
    Matrix dm;
    if (spend(m.size()))
      for (const Row& row : m) defaultRow(row, dm);
    Row dq(q.begin() + 1, q.end());
    if (out == nullptr) return useful(dm, dq, rest, nullptr);
    std::vector<WitnessRow> found;
    if (!useful(dm, dq, rest, &found)) return false;
    bool anyPresent = false;
    for (bool p : present) anyPresent = anyPresent || p;
    for (WitnessRow& w : found) {
      if (!anyPresent) {
        WitnessRow row;
        Witness wild;
        wild.type = t;
        row.push_back(std::move(wild));
        row.insert(row.end(), w.begin(), w.end());
        addWitness(*out, std::move(row));
        continue;
      }
      for (std::size_t i = 0; i < n; ++i) {
        if (present[i]) continue;
        std::size_t arity = subTypes(t, i).size();
        WitnessRow sub(arity);
        sub.insert(sub.end(), w.begin(), w.end());
        std::vector<WitnessRow> one;
        wrap(t, i, arity, std::move(sub), one);
        addWitness(*out, std::move(one.front()));
      }
    }
    return true;
  }

  // The top matrix specialized by `c`, from the index.
  Matrix specializeTop(const Ctor& c, std::size_t arity) {
    Matrix out;
    auto take = [&](const std::vector<std::uint32_t>& ids) {
      if (!spend(ids.size())) return;
      for (std::uint32_t id : ids) specializeRow(rows[id], c, arity, out);
    };
    take(wildRows);
    if (c.kind == Ctor::Kind::Range) take(rangeRows);
    auto it = byHead.find(key(c));
    if (it != byHead.end()) take(it->second);
    return out;
  }

  bool usefulTop(Pat p) {
    Pat h = norm(p);
    if (h != nullptr && h->kind == ResolvedPattern::Kind::Or)
      return std::any_of(
          h->subs.begin(), h->subs.end(),
          [this](const SubPattern& alt) { return usefulTop(alt.pattern); });
    Types ts{scrutinee};
    Row q{h};
    if (h == nullptr) return useful(rows, q, ts, nullptr);
    const Type* t = peel(scrutinee);
    Ctor c = ctorOf(h);
    Types sub = c.kind == Ctor::Kind::Finite ? subTypes(t, c.index) : Types{};
    Matrix sm = specializeTop(c, sub.size());
    return useCtor(sm, h, c, t, sub, q, Types{}, nullptr);
  }

  void add(Pat arm) {
    llvm::SmallVector<Pat, 4> alts;
    expandOr(arm, alts);
    for (Pat h : alts) {
      auto id = static_cast<std::uint32_t>(rows.size());
      rows.push_back(Row{h});
      if (h == nullptr) {
        wildRows.push_back(id);
        continue;
      }
      Ctor c = ctorOf(h);
      if (c.kind == Ctor::Kind::Range && c.lo != c.hi) {
        rangeRows.push_back(id);
        continue;
      }
      byHead[key(c)].push_back(id);
      if (c.kind == Ctor::Kind::Finite && c.index < wholeCtor.size()) {
        bool whole = true;
        for (const SubPattern& s : h->subs)
          whole = whole && irrefutable(s.pattern);
        if (whole) wholeCtor[c.index] = true;
      }
    }
    if (irrefutable(arm)) anyIrrefutable = true;
  }
};

ArmMatrix::ArmMatrix(const Type* scrutinee)
    : scrutinee_(scrutinee), ctors_(ctorCount(peel(scrutinee))) {
  chosen_.assign(ctors_, false);
}

ArmMatrix::~ArmMatrix() = default;

namespace {

// The constructors `p` chooses, when that is all it does: false for any
// other pattern.
bool choice(Pat p, const Type* t, llvm::SmallVectorImpl<std::size_t>& out,
            bool& everything) {
  if (p == nullptr) {  // matches anything, as in a row
    everything = true;
    return true;
  }
  auto anything = [](const SubPattern& sub) {
    return sub.pattern == nullptr ||
           sub.pattern->kind == ResolvedPattern::Kind::Wildcard ||
           sub.pattern->kind == ResolvedPattern::Kind::Binding;
  };
  switch (p->kind) {
    case ResolvedPattern::Kind::Wildcard:
    case ResolvedPattern::Kind::Binding:
      everything = true;
      return true;
    case ResolvedPattern::Kind::None:
      if (t == nullptr || t->kind != TypeKind::Option) return false;
      out.push_back(0);
      return true;
    case ResolvedPattern::Kind::Some:
      if (t == nullptr || t->kind != TypeKind::Option) return false;
      if (!std::all_of(p->subs.begin(), p->subs.end(), anything)) return false;
      out.push_back(1);
      return true;
    case ResolvedPattern::Kind::Variant:
      if (!isSumType(t) || p->variant == nullptr ||
          p->variant->index >= t->named->variants.size())
        return false;
      if (!std::all_of(p->subs.begin(), p->subs.end(), anything)) return false;
      out.push_back(p->variant->index);
      return true;
    case ResolvedPattern::Kind::Or:
      for (const SubPattern& sub : p->subs)
        if (!choice(sub.pattern, t, out, everything)) return false;
      return true;
    case ResolvedPattern::Kind::Literal:
    case ResolvedPattern::Kind::Range:
    case ResolvedPattern::Kind::Record:
    case ResolvedPattern::Kind::Invalid:
      return false;
  }
  return false;
}

}  // namespace

bool ArmMatrix::chooses(const ResolvedPattern* arm) {
  llvm::SmallVector<std::size_t, 4> heads;
  bool everything = false;
  if (!choice(arm, peel(scrutinee_), heads, everything)) return false;
  bool fresh = false;
  if (!everything_) {
    if (everything) fresh = ctors_ == 0 || chosenCount_ < ctors_;
    for (std::size_t h : heads) fresh = fresh || !chosen_[h];
  }
  if (!fresh) return false;
  for (std::size_t h : heads)
    if (!chosen_[h]) {
      chosen_[h] = true;
      ++chosenCount_;
    }
  everything_ = everything_ || everything;
  arms_.push_back(arm);
  return true;
}

ArmMatrix::State& ArmMatrix::state() {
  if (state_ == nullptr) {
    state_ = std::make_unique<State>();
    state_->scrutinee = scrutinee_;
    state_->wholeCtor.assign(ctors_, false);
    for (const ResolvedPattern* arm : arms_) state_->add(arm);
    arms_.clear();
  }
  return *state_;
}

bool ArmMatrix::addArm(const ResolvedPattern* arm) {
  if (state_ == nullptr && chooses(arm)) return true;
  State& s = state();
  bool reachable = s.capped || s.usefulTop(arm);
  s.add(arm);
  return reachable;
}

bool ArmMatrix::capped() const { return state_ != nullptr && state_->capped; }

bool ArmMatrix::moreMissing() const {
  return state_ != nullptr && state_->more;
}

std::vector<std::string> ArmMatrix::missing() {
  if (state_ == nullptr &&
      (everything_ || (ctors_ > 0 && chosenCount_ == ctors_)))
    return {};
  State& s = state();
  const Type* t = peel(s.scrutinee);
  std::size_t n = ctorCount(t);
  std::vector<std::string> out;
  if (!s.capped) {
    std::vector<bool> present(n, false);
    for (const auto& [k, ids] : s.byHead) {
      if (ids.empty() || k.empty() || k[0] != '#') continue;
      std::size_t i = std::stoul(k.substr(1));
      if (i < n) present[i] = true;
    }
    std::vector<WitnessRow> found;
    Row q{nullptr};
    s.useWildWith(s.rows, present, t, q, Types{}, &found,
                  [&](const Ctor& c, std::size_t arity) {
                    return s.specializeTop(c, arity);
                  });
    if (!s.capped) {
      for (const WitnessRow& w : found)
        if (!w.empty()) out.push_back(print(w.front()));
      // No arm at all: every constructor is missing.
      if (n > 0 && out.size() == 1 && out.front() == "_") {
        out.clear();
        for (std::size_t i = 0; i < n && i < kMaxWitnesses; ++i) {
          Witness w;
          w.type = s.scrutinee;
          w.ctor = static_cast<int>(i);
          w.subs.resize(subTypes(t, i).size());
          out.push_back(print(w));
        }
        s.more = n > kMaxWitnesses;
      }
      return out;
    }
  }
  // Past the work bound: only arms that match whole constructors count.
  s.more = false;
  if (s.anyIrrefutable) return out;
  if (n == 0) return {"_"};
  for (std::size_t i = 0; i < n; ++i) {
    if (s.wholeCtor[i]) continue;
    Witness w;
    w.type = s.scrutinee;
    w.ctor = static_cast<int>(i);
    w.subs.resize(subTypes(t, i).size());
    out.push_back(print(w));
  }
  return out;
}

}  // namespace herald::check
