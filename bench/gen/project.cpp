#include "bench/gen/project.h"

#include <algorithm>
#include <deque>
#include <vector>

#include "bench/gen/emit.h"
#include "bench/gen/host.h"
#include "bench/gen/idl.h"
#include "bench/gen/idl_common.h"
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
    schema_.contexts.push_back({std::string(kCorePath), {}, false, {}});
    emitCoreContext(w, schema_.contexts.back().decls);
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
    if (options_.format != Format::Herald) writeSchema();
    return stats_;
  }

 private:
  // Replaces the Herald project's file statistics by the schema's.
  void writeSchema() {
    SchemaFiles files;
    switch (options_.format) {
      case Format::Herald:
        return;
      case Format::HeraldSchema:
        files = heraldSchemaFiles(schema_, options_.seed);
        break;
      case Format::FlatBuffers:
        files = flatBuffersFiles(schema_, options_.seed);
        break;
      case Format::Proto:
        files = protoFiles(schema_, options_.seed);
        break;
      case Format::Capnp:
        files = capnpFiles(schema_, options_.seed);
        break;
    }
    stats_.heraldLines = stats_.lines;
    stats_.lines = stats_.bytes = 0;
    stats_.files = files.size();
    for (SchemaFile& file : files) {
      stats_.lines += file.text.lines();
      const std::string text = file.text.take();
      stats_.bytes += text.size();
      write_(file.path, text);
    }
    if (options_.host) writeHost();
    for (const ContextSchema& ctx : schema_.contexts) {
      for (const Decl& decl : ctx.decls) {
        if (decl.event) {
          ++stats_.events;
          stats_.fields += decl.event->fields.size();
        }
        if (!decl.type || !isDeclared(*decl.type)) continue;
        ++stats_.types;
        stats_.fields += decl.type->fields.size();
        for (const Variant& variant : decl.type->variants) {
          stats_.fields += variant.fields.size();
        }
      }
    }
  }

  void writeHost() {
    SchemaFile file;
    switch (options_.format) {
      case Format::Herald:
      case Format::Capnp:
        return;
      case Format::HeraldSchema:
        file = heraldHostFile(schema_, options_.seed);
        break;
      case Format::FlatBuffers:
        file = flatBuffersHostFile(schema_, options_.seed);
        break;
      case Format::Proto:
        file = protoHostFile(schema_, options_.seed);
        break;
    }
    write_(file.path, file.text.take());
  }

  void fileHeader(TextWriter& w, const std::string& what) {
    w.line("-- {}: synthetic benchmark input (seed {}).", what, options_.seed);
    w.blank();
  }

  void flush(TextWriter& w, const std::string& path) {
    stats_.lines += w.lines();
    const std::string text = w.take();
    stats_.bytes += text.size();
    ++stats_.files;
    for (std::size_t i = unfiled_; i < schema_.contexts.size(); ++i) {
      schema_.contexts[i].file = path;
    }
    unfiled_ = schema_.contexts.size();
    if (options_.format == Format::Herald) write_(path, text);
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

    schema_.contexts.push_back({ctx.path, {}, form == ContextForm::Block, {}});
    std::vector<Decl>& decls = schema_.contexts.back().decls;
    if (form == ContextForm::Header) fileHeader(w, ctx.path);
    emitContextOpen(w, ctx, consumes, form, rng_);
    emitContextPrelude(w, ctx, rng_, decls);
    ServiceNames services;
    for (;;) {
      const Entity& entity = ctx.entities.back();
      emitEntityDecls(w, entity, rng_, decls);
      emitEntityAgent(w, ctx, entity, rng_);
      emitSubscribers(w, ctx, entity, consumes, rng_, services, registered_);
      const std::size_t written = w.lines() - start;
      if (written >= targetLines ||
          stats_.lines + w.lines() >= options_.lines ||
          ctx.entities.size() >= maxEntities) {
        break;
      }
      ctx.entities.push_back(pool_.next().entity);
    }
    emitContextServices(w, ctx, rng_, services, registered_);
    emitContextClose(w, form);
    stats_.contexts += 1;
    stats_.entities += ctx.entities.size();
    contexts_.push_back(std::move(ctx));
    return contexts_.back();
  }

  const ProjectOptions& options_;
  Schema schema_;
  RegisteredSubscribers registered_;
  std::size_t unfiled_ = 0;  // contexts of the file being written
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
