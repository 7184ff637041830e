#include "registry/evolve.h"

namespace herald::registry {

namespace {

std::string quoted(const std::string& s) { return "'" + s + "'"; }

void compareField(const LockField& was, const LockField& is,
                  std::vector<FieldChange>& changes) {
  if (was.type != is.type)
    changes.push_back({is.name, "retyped from " + quoted(was.type) + " to " +
                                    quoted(is.type)});
  if (was.default_ == is.default_) return;
  if (!is.default_)
    changes.push_back({is.name, "lost its default " + quoted(*was.default_)});
  else if (!was.default_)
    changes.push_back({is.name, "gained the default " + quoted(*is.default_) +
                                    " after it was recorded without one"});
  else
    changes.push_back({is.name, "changed its default from " +
                                    quoted(*was.default_) + " to " +
                                    quoted(*is.default_)});
}

}  // namespace

Evolution compareShapes(const LockEvent& locked, const LockEvent& current) {
  Evolution result;
  std::size_t i = 0;
  std::size_t j = 0;
  const std::vector<LockField>& was = locked.fields;
  const std::vector<LockField>& is = current.fields;
  while (i < was.size() || j < is.size()) {
    if (j == is.size() || (i < was.size() && was[i].name < is[j].name)) {
      result.changes.push_back(
          {was[i].name, "removed (was " + quoted(was[i].type) + ")"});
      ++i;
    } else if (i == was.size() || is[j].name < was[i].name) {
      if (is[j].default_)
        result.added.push_back(is[j]);
      else
        result.changes.push_back({is[j].name, "added without a default"});
      ++j;
    } else {
      compareField(was[i], is[j], result.changes);
      ++i;
      ++j;
    }
  }
  if (!result.changes.empty())
    result.kind = EvolutionKind::NonAdditive;
  else if (!result.added.empty())
    result.kind = EvolutionKind::Additive;
  return result;
}

StateEvolution compareStores(const LockAgent& locked,
                             const LockAgent& current) {
  StateEvolution result;
  std::size_t i = 0;
  std::size_t j = 0;
  const std::vector<LockStore>& was = locked.stores;
  const std::vector<LockStore>& is = current.stores;
  while (i < was.size() || j < is.size()) {
    if (j == is.size() || (i < was.size() && was[i].name < is[j].name)) {
      result.changes.push_back(
          {was[i].name, "removed (was " + quoted(was[i].type) + ")"});
      ++i;
    } else if (i == was.size() || is[j].name < was[i].name) {
      if (is[j].initialiser)
        result.added.push_back(is[j]);
      else
        result.changes.push_back({is[j].name, "added without an initialiser"});
      ++j;
    } else {
      if (was[i].type != is[j].type)
        result.changes.push_back({is[j].name, "retyped from " +
                                                  quoted(was[i].type) + " to " +
                                                  quoted(is[j].type)});
      if (was[i].since > 1 && !is[j].initialiser)
        result.changes.push_back(
            {is[j].name,
             "lost its initialiser, which state older than version " +
                 std::to_string(was[i].since) + " decodes it from"});
      ++i;
      ++j;
    }
  }
  if (!result.changes.empty())
    result.kind = EvolutionKind::NonAdditive;
  else if (!result.added.empty())
    result.kind = EvolutionKind::Additive;
  return result;
}

}  // namespace herald::registry
