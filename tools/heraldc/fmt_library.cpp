// The fmt library's compiled part, built into heraldc.
//
// heraldc links the C++ runtime statically (tools/heraldc/CMakeLists.txt:
// the shared libraries cost every run about 65 page faults and 2 ms before
// main). Debian ships fmt only as a shared library, and libfmt.so would
// load the shared libstdc++ again, so the executable carries fmt's compiled
// part itself: the implementation header that the library's package
// installs, and the instantiations that fmt/format.h declares `extern` or
// leaves to the library (fmt 9; CMake checks the version). The linker then
// finds no symbol left for libfmt.so and drops it. The libraries heraldc
// links are compiled against fmt's headers alone, as before.
#include <fmt/format-inl.h>

#if FMT_VERSION < 90000 || FMT_VERSION >= 100000
#error "fmt_library.cpp instantiates fmt 9's compiled part"
#endif

FMT_BEGIN_NAMESPACE
namespace detail {

template auto thousands_sep_impl(locale_ref) -> thousands_sep_result<char>;
template auto thousands_sep_impl(locale_ref) -> thousands_sep_result<wchar_t>;
template auto decimal_point_impl(locale_ref) -> char;
template auto decimal_point_impl(locale_ref) -> wchar_t;
template auto dragonbox::to_decimal(float) noexcept
    -> dragonbox::decimal_fp<float>;
template auto dragonbox::to_decimal(double) noexcept
    -> dragonbox::decimal_fp<double>;
template locale_ref::locale_ref(const std::locale&);
template auto locale_ref::get<std::locale>() const -> std::locale;

}  // namespace detail
FMT_END_NAMESPACE
