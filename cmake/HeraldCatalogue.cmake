# The one reader of the diagnostic catalogue's structure (lang/diagnostics.md),
# shared by the generator of `heraldc --explain`'s entries and the test that
# checks every example.
#
# herald_catalogue_sections(<text> <out>) sets <out> to one item per
# `### CODE name` section, in order, each `CODE|name|offset|length`: the
# section's text is string(SUBSTRING <text> offset length), from just after
# `### ` up to the next heading of level 2 or 3. Headings of level 3 that do
# not name a code are skipped.

function(herald_catalogue_sections text out)
  set(result "")
  # Offsets into "\n<text>", so a heading on the first line is found too;
  # one less is the offset into <text>.
  set(rest "\n${text}")
  set(base 0)
  while(TRUE)
    string(FIND "${rest}" "\n### " at)
    if(at EQUAL -1)
      break()
    endif()
    math(EXPR at "${at} + 5")
    string(SUBSTRING "${rest}" ${at} -1 rest)
    math(EXPR base "${base} + ${at}")
    string(LENGTH "${rest}" length)
    foreach(next "\n## " "\n### ")
      string(FIND "${rest}" "${next}" end)
      if(NOT end EQUAL -1 AND end LESS length)
        set(length ${end})
      endif()
    endforeach()
    string(SUBSTRING "${rest}" 0 ${length} section)
    if(NOT "${section}\n" MATCHES "^([EW][0-9]+) ([a-z0-9-]+)\n")
      continue()
    endif()
    math(EXPR offset "${base} - 1")
    list(APPEND result "${CMAKE_MATCH_1}|${CMAKE_MATCH_2}|${offset}|${length}")
  endwhile()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# herald_catalogue_section(<text> <item> <code> <name> <section>) unpacks one
# item of herald_catalogue_sections.
function(herald_catalogue_section text item code name section)
  string(REPLACE "|" ";" parts "${item}")
  list(GET parts 0 c)
  list(GET parts 1 n)
  list(GET parts 2 offset)
  list(GET parts 3 length)
  string(SUBSTRING "${text}" ${offset} ${length} s)
  set(${code} "${c}" PARENT_SCOPE)
  set(${name} "${n}" PARENT_SCOPE)
  set(${section} "${s}" PARENT_SCOPE)
endfunction()
