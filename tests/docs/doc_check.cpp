// The documentation's checker (tests/docs/docs.cmake drives it):
//
//   doc_check links <root>
//       every relative link of every *.md under <root> resolves to a file or
//       directory, and an anchor (#...) to a heading of the Markdown file it
//       names (GitHub's slugs); prints each broken link as file:line.
//   doc_check blocks <out dir> <file.md>...
//       writes each ```cpp block of the files to <out dir>/block<N>.cpp
//       (```cpp: a whole translation unit; ```cpp body: statements, wrapped
//       in a function after the host headers; ```cpp excerpt: not written)
//       and lists them, with where each came from, in <out dir>/blocks.txt.
//   doc_check commands <out file> <file.md>...
//       writes each distinct herald / heraldc command line the files show
//       (in shell blocks and in inline code) to <out file>, one
//       "file:line tool argument..." a line.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace fs = std::filesystem;

namespace {

std::vector<std::string> read_lines(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

std::string trim(std::string_view s) {
  std::size_t b = 0;
  std::size_t e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b])) != 0) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])) != 0) --e;
  return std::string(s.substr(b, e - b));
}

// A fence opens or closes with three or more backticks or tildes; the info
// string follows an opening one.
bool fence(const std::string& line, std::string* info) {
  const std::string t = trim(line);
  if (t.rfind("```", 0) != 0 && t.rfind("~~~", 0) != 0) return false;
  if (info != nullptr) {
    std::size_t i = 0;
    while (i < t.size() && (t[i] == '`' || t[i] == '~')) ++i;
    *info = trim(t.substr(i));
  }
  return true;
}

// Text outside fenced blocks, with inline code spans blanked: where links
// and headings are. A code span may go on over lines of its paragraph.
std::vector<std::string> prose(const std::vector<std::string>& lines) {
  std::vector<std::string> out;
  bool in_fence = false;
  bool in_code = false;
  for (const std::string& line : lines) {
    if (trim(line).empty()) in_code = false;
    if (fence(line, nullptr)) {
      in_fence = !in_fence;
      out.emplace_back();
      continue;
    }
    if (in_fence) {
      out.emplace_back();
      continue;
    }
    std::string text = line;
    for (char& c : text) {
      if (c == '`') {
        in_code = !in_code;
      } else if (in_code) {
        c = ' ';
      }
    }
    out.push_back(text);
  }
  return out;
}

// GitHub's heading anchor: lower case; letters, digits, '-' and '_' kept
// (and every non-ASCII byte); spaces to '-'; the rest dropped.
std::string slug(std::string_view heading) {
  std::string out;
  for (const char ch : heading) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x80 || std::isalnum(c) != 0 || c == '-' || c == '_') {
      out.push_back(static_cast<char>(std::tolower(c)));
    } else if (c == ' ') {
      out.push_back('-');
    }
  }
  return out;
}

// The text a heading shows: [text](target) becomes text.
std::string heading_text(std::string_view raw) {
  std::string out;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == ']' && i + 1 < raw.size() && raw[i + 1] == '(') {
      const std::size_t close = raw.find(')', i);
      if (close != std::string_view::npos) {
        i = close;
        continue;
      }
    }
    if (raw[i] != '[') out.push_back(raw[i]);
  }
  return out;
}

std::set<std::string> anchors_of(const fs::path& md) {
  const std::vector<std::string> raw = read_lines(md);
  std::set<std::string> anchors;
  std::map<std::string, int> seen;
  bool in_fence = false;
  for (const std::string& line : raw) {
    if (fence(line, nullptr)) {
      in_fence = !in_fence;
      continue;
    }
    if (in_fence) continue;
    // Explicit anchors: <a name="x"> or id="x".
    for (const char* attr : {"name=\"", "id=\""}) {
      std::size_t at = line.find(attr);
      while (at != std::string::npos) {
        const std::size_t start = at + std::string_view(attr).size();
        const std::size_t end = line.find('"', start);
        if (end == std::string::npos) break;
        anchors.insert(line.substr(start, end - start));
        at = line.find(attr, end);
      }
    }
    std::size_t level = 0;
    while (level < line.size() && line[level] == '#') ++level;
    if (level == 0 || level > 6 || level >= line.size() || line[level] != ' ')
      continue;
    std::string text = trim(line.substr(level));
    while (!text.empty() && text.back() == '#') text.pop_back();
    const std::string base = slug(trim(heading_text(text)));
    const int n = seen[base]++;
    anchors.insert(n == 0 ? base : base + "-" + std::to_string(n));
  }
  return anchors;
}

struct Link {
  std::size_t line;
  std::string target;
};

// Inline links and images [text](target "title"), autolinks aside, and
// reference definitions [label]: target.
std::vector<Link> links_of(const std::vector<std::string>& text) {
  std::vector<Link> links;
  for (std::size_t n = 0; n < text.size(); ++n) {
    const std::string& line = text[n];
    std::size_t at = line.find("](");
    while (at != std::string::npos) {
      std::size_t start = at + 2;
      std::size_t end = start;
      int depth = 0;
      while (end < line.size() && (line[end] != ')' || depth > 0)) {
        if (line[end] == '(') ++depth;
        if (line[end] == ')') --depth;
        ++end;
      }
      std::string target = trim(line.substr(start, end - start));
      if (!target.empty() && target.front() == '<') {
        const std::size_t close = target.find('>');
        target = target.substr(
            1, close == std::string::npos ? std::string::npos : close - 1);
      } else {
        const std::size_t space = target.find(' ');
        if (space != std::string::npos) target.resize(space);
      }
      links.push_back({n + 1, target});
      at = line.find("](", end);
    }
    const std::string t = trim(line);
    if (!t.empty() && t.front() == '[') {
      const std::size_t colon = t.find("]: ");
      if (colon != std::string::npos && t.find('[', 1) > colon) {
        std::string target = trim(t.substr(colon + 3));
        const std::size_t space = target.find(' ');
        if (space != std::string::npos) target.resize(space);
        links.push_back({n + 1, target});
      }
    }
  }
  return links;
}

bool external(const std::string& target) {
  const std::size_t colon = target.find(':');
  if (colon == std::string::npos) return false;
  const std::size_t slash = target.find('/');
  // A scheme (http:, https:, mailto:) comes before any '/'.
  return slash == std::string::npos || colon < slash;
}

// Directories that are not part of the repository's documents: hidden ones
// (.git) and build trees (they hold a CMakeCache.txt).
bool skipped_dir(const fs::path& dir) {
  const std::string name = dir.filename().string();
  return (!name.empty() && name.front() == '.') ||
         fs::exists(dir / "CMakeCache.txt");
}

std::vector<fs::path> markdown_files(const fs::path& root) {
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(root);
       it != fs::recursive_directory_iterator(); ++it) {
    if (it->is_directory() && skipped_dir(it->path())) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && it->path().extension() == ".md")
      files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

int check_links(const fs::path& root) {
  std::map<fs::path, std::set<std::string>> anchor_cache;
  auto anchors = [&anchor_cache](const fs::path& md) -> const auto& {
    auto it = anchor_cache.find(md);
    if (it == anchor_cache.end())
      it = anchor_cache.emplace(md, anchors_of(md)).first;
    return it->second;
  };
  int broken = 0;
  std::size_t checked = 0;
  const auto files = markdown_files(root);
  for (const fs::path& md : files) {
    const auto text = prose(read_lines(md));
    for (const Link& link : links_of(text)) {
      if (link.target.empty() || external(link.target)) continue;
      ++checked;
      const std::size_t hash = link.target.find('#');
      const std::string file_part = link.target.substr(0, hash);
      const std::string anchor =
          hash == std::string::npos ? "" : link.target.substr(hash + 1);
      fs::path target = md;
      if (!file_part.empty()) {
        target = file_part.front() == '/' ? root / file_part.substr(1)
                                          : md.parent_path() / file_part;
      }
      const std::string where = fs::relative(md, root).string() + ":" +
                                std::to_string(link.line) + ": ";
      if (!fs::exists(target)) {
        std::cout << where << "link to " << link.target
                  << ": no such file in the repository\n";
        ++broken;
        continue;
      }
      const fs::path canonical = fs::weakly_canonical(target);
      const fs::path canonical_root = fs::weakly_canonical(root);
      const auto rel = fs::relative(canonical, canonical_root).string();
      if (rel.rfind("..", 0) == 0) {
        std::cout << where << "link to " << link.target
                  << ": outside the repository\n";
        ++broken;
        continue;
      }
      if (!anchor.empty() && target.extension() == ".md" &&
          !anchors(canonical).contains(anchor)) {
        std::cout << where << "link to " << link.target << ": "
                  << fs::relative(canonical, canonical_root).string()
                  << " has no heading with anchor #" << anchor << "\n";
        ++broken;
      }
    }
  }
  std::cout << "links: " << checked << " relative links in " << files.size()
            << " files, " << broken << " broken\n";
  return broken == 0 ? 0 : 1;
}

// What a ```cpp body block is wrapped in: the headers a host includes.
constexpr std::string_view kBodyPrelude =
    "#include <chrono>\n#include <cstdio>\n#include <string>\n"
    "#include <vector>\n#include <nlohmann/json.hpp>\n"
    "#include \"herald/backend.hpp\"\n#include \"herald/config.hpp\"\n"
    "#include \"herald/dead_message.hpp\"\n"
    "#include \"herald/deterministic_executor.hpp\"\n"
    "#include \"herald/log.hpp\"\n#include \"herald/metrics.hpp\"\n"
    "#include \"herald/runtime.hpp\"\n#include \"herald/testing.hpp\"\n"
    "#include \"herald/threaded_executor.hpp\"\n"
    "using namespace std::chrono_literals;\n";

int extract_blocks(const fs::path& out_dir, const std::vector<fs::path>& docs) {
  fs::create_directories(out_dir);
  std::ofstream list(out_dir / "blocks.txt");
  int count = 0;
  for (const fs::path& md : docs) {
    const auto lines = read_lines(md);
    for (std::size_t n = 0; n < lines.size(); ++n) {
      std::string info;
      if (!fence(lines[n], &info)) continue;
      std::size_t end = n + 1;
      while (end < lines.size() && !fence(lines[end], nullptr)) ++end;
      std::istringstream words(info);
      std::string lang;
      std::string mode;
      words >> lang >> mode;
      if (lang == "cpp" && mode != "excerpt") {
        if (!mode.empty() && mode != "body") {
          std::cout << md.string() << ":" << n + 1
                    << ": unknown ```cpp block kind '" << mode
                    << "' (none, body or excerpt)\n";
          return 1;
        }
        ++count;
        const fs::path file =
            out_dir / ("block" + std::to_string(count) + ".cpp");
        std::ofstream out(file);
        if (mode == "body") out << kBodyPrelude << "void docs_block() {\n";
        out << "#line " << n + 2 << " \"" << md.string() << "\"\n";
        for (std::size_t i = n + 1; i < end; ++i) out << lines[i] << "\n";
        if (mode == "body") out << "}\n";
        list << file.string() << " " << md.string() << ":" << n + 1 << "\n";
      }
      n = end;
    }
  }
  std::cout << "blocks: " << count << " ```cpp blocks\n";
  return 0;
}

// The herald / heraldc command a piece of text starts with (after a shell
// prompt, environment assignments and a directory): "tool word...", up to a
// shell comment, or "" if it is none.
std::string command_of(std::string_view text) {
  const std::size_t comment = text.find(" #");
  std::istringstream words{std::string(text.substr(0, comment))};
  std::string word;
  while (words >> word) {
    if (word == "$") continue;
    if (word.find('=') != std::string::npos && word.front() != '-') continue;
    break;
  }
  const std::string tool = fs::path(word).filename().string();
  if (tool != "herald" && tool != "heraldc") return "";
  std::string out = tool;
  while (words >> word) {
    // Shell syntax ends the command.
    if (word == "|" || word == ">" || word == "&&" || word == ";") break;
    out += " " + word;
  }
  return out;
}

int extract_commands(const fs::path& out_file,
                     const std::vector<fs::path>& docs) {
  std::map<std::string, std::string> commands;  // command -> first place
  for (const fs::path& md : docs) {
    const auto lines = read_lines(md);
    bool in_fence = false;
    bool shell = false;
    for (std::size_t n = 0; n < lines.size(); ++n) {
      const std::string& line = lines[n];
      std::string info;
      if (fence(line, &info)) {
        in_fence = !in_fence;
        std::istringstream words(info);
        std::string lang;
        words >> lang;
        shell = in_fence && (lang.empty() || lang == "sh" || lang == "bash" ||
                             lang == "console" || lang == "shell");
        continue;
      }
      const std::string where = md.string() + ":" + std::to_string(n + 1);
      if (in_fence) {
        if (!shell) continue;
        const std::string c = command_of(line);
        if (!c.empty()) commands.emplace(c, where);
        continue;
      }
      std::size_t at = line.find('`');
      while (at != std::string::npos) {
        const std::size_t end = line.find('`', at + 1);
        if (end == std::string::npos) break;
        const std::string c = command_of(line.substr(at + 1, end - at - 1));
        // Inline code: only with arguments ("the `herald` tool" is a name).
        if (c.find(' ') != std::string::npos) commands.emplace(c, where);
        at = line.find('`', end + 1);
      }
    }
  }
  std::ofstream out(out_file);
  for (const auto& [command, where] : commands)
    out << where << " " << command << "\n";
  std::cout << "commands: " << commands.size() << " distinct\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.size() == 2 && args[0] == "links") return check_links(args[1]);
    if (args.size() >= 2 && (args[0] == "blocks" || args[0] == "commands")) {
      std::vector<fs::path> docs(args.begin() + 2, args.end());
      for (const fs::path& d : docs) {
        if (!fs::exists(d)) {
          std::cerr << "doc_check: " << d.string() << ": no such file\n";
          return 1;
        }
      }
      return args[0] == "blocks" ? extract_blocks(args[1], docs)
                                 : extract_commands(args[1], docs);
    }
  } catch (const std::exception& e) {
    std::cerr << "doc_check: " << e.what() << "\n";
    return 1;
  }
  std::cerr << "usage: doc_check links <root> | blocks <out dir> <file.md>... "
               "| commands <out file> <file.md>...\n";
  return 2;
}
