// Precompiled for the g++ compiles of generated C++ (CMakeLists.txt): every
// generated source includes this through the runtime's codec headers, and
// parsing it is about 40% of compiling one.
#include <nlohmann/json.hpp>
