#include "bench/gen/project.h"

#include <algorithm>
#include <deque>
#include <vector>

#include "bench/gen/emit.h"
#include "bench/gen/model.h"
#include "bench/gen/rng.h"
#include "bench/gen/text_writer.h"

namespace herald::bench {

namespace {

class ProjectBuilder {
 public:
  ProjectBuilder(const ProjectOptions& options, const FileSink& write)
      : options_(options), write_(write), rng_(options.seed), pool_(rng_) {}

  ProjectStats run() {
    TextWriter w;
    fileHeader(w, std::string(kCorePath));
    emitCoreContext(w);
    flush(w, "core/identity.herald");

    // Contexts of a few thousand lines at 1M lines, smaller for small
    // projects so that even they have several contexts.
    const std::size_t high =
        std::clamp<std::size_t>(options_.lines / 6, 400, 4'500);
    const std::size_t low = high / 2;
    int bundles = 0;
    while (stats_.lines < options_.lines) {
      if (contexts_.size() >= 2 && rng_.chance(15)) {
        // Several small contexts in block form in one file.
        const int count = rng_.range(2, 3);
        std::string area;
        fileHeader(w, "contexts in block form");
        // At least one, so the file always has a context (and an area).
        for (int i = 0;
             i < count && (i == 0 || stats_.lines + w.lines() < options_.lines);
             ++i) {
          const Context& c = buildContext(w, ContextForm::Block, low / 2, 2);
          if (area.empty()) area = c.path.substr(0, c.path.find('.'));
        }
        flush(w, area + "/bundle" + std::to_string(++bundles) + ".herald");
      } else {
        const auto target = static_cast<std::size_t>(
            rng_.range(static_cast<int>(low), static_cast<int>(high)));
        const Context& c = buildContext(w, ContextForm::Header, target, 1'000);
        std::string path = c.path;
        std::replace(path.begin(), path.end(), '.', '/');
        flush(w, path + ".herald");
      }
    }
    return stats_;
  }

 private:
  void fileHeader(TextWriter& w, const std::string& what) {
    w.line("-- {}: synthetic benchmark input (seed {}).", what, options_.seed);
    w.blank();
  }

  void flush(TextWriter& w, const std::string& path) {
    stats_.lines += w.lines();
    const std::string text = w.take();
    stats_.bytes += text.size();
    ++stats_.files;
    write_(path, text);
  }

  // Up to three earlier contexts, one in each `consumes` form.
  std::vector<Consume> planConsumes() {
    std::vector<Consume> consumes;
    const std::size_t window = std::min<std::size_t>(contexts_.size(), 8);
    std::vector<const Context*> candidates;
    for (std::size_t i = contexts_.size() - window; i < contexts_.size(); ++i) {
      candidates.push_back(&contexts_[i]);
    }
    rng_.shuffle(candidates);
    std::vector<ConsumeForm> forms = {ConsumeForm::Plain, ConsumeForm::Alias,
                                      ConsumeForm::Only};
    rng_.shuffle(forms);
    const auto count = std::min<std::size_t>(
        candidates.size(), static_cast<std::size_t>(rng_.range(1, 3)));
    for (std::size_t i = 0; i < count; ++i) {
      consumes.push_back({candidates[i], forms[i]});
    }
    return consumes;
  }

  const Context& buildContext(TextWriter& w, ContextForm form,
                              std::size_t targetLines,
                              std::size_t maxEntities) {
    const std::size_t start = w.lines();
    NamePool::Noun first = pool_.next();
    Context ctx;
    ctx.path = first.area + "." + first.entity.lower;
    ctx.last = first.entity.lower;
    ctx.head = first.entity.name;
    ctx.entities.push_back(std::move(first.entity));
    const std::vector<Consume> consumes = planConsumes();

    if (form == ContextForm::Header) fileHeader(w, ctx.path);
    emitContextOpen(w, ctx, consumes, form, rng_);
    emitContextPrelude(w, ctx, rng_);
    ServiceNames services;
    for (;;) {
      const Entity& entity = ctx.entities.back();
      emitEntityDecls(w, entity, rng_);
      emitEntityAgent(w, ctx, entity, rng_);
      emitSubscribers(w, ctx, entity, consumes, rng_, services);
      const std::size_t written = w.lines() - start;
      if (written >= targetLines ||
          stats_.lines + w.lines() >= options_.lines ||
          ctx.entities.size() >= maxEntities) {
        break;
      }
      ctx.entities.push_back(pool_.next().entity);
    }
    emitContextServices(w, ctx, rng_, services);
    emitContextClose(w, form);
    stats_.contexts += 1;
    stats_.entities += ctx.entities.size();
    contexts_.push_back(std::move(ctx));
    return contexts_.back();
  }

  const ProjectOptions& options_;
  const FileSink& write_;
  Rng rng_;
  NamePool pool_;
  std::deque<Context> contexts_;  // stable addresses: consumes point here
  ProjectStats stats_;
};

}  // namespace

ProjectStats generateProject(const ProjectOptions& options,
                             const FileSink& write) {
  return ProjectBuilder(options, write).run();
}

}  // namespace herald::bench
