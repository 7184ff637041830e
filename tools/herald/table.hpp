#pragma once
// A plain text table: a header row and data rows, columns padded to their
// widest cell and two spaces apart, numbers right-aligned, no trailing
// blanks.
#include <string>
#include <vector>

namespace herald::tool {

enum class Align { Left, Right };

struct Column {
  std::string header;
  Align align = Align::Left;
};

class Table {
 public:
  explicit Table(std::vector<Column> columns);
  // One cell per column.
  void add_row(std::vector<std::string> cells);
  bool empty() const { return rows_.empty(); }
  // The header, then the rows, each line ending in '\n'.
  std::string render() const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace herald::tool
