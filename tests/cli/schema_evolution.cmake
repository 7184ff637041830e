# A project evolving across builds (language reference, section 11): each
# `heraldc build` reads and maintains herald.schema.lock; an additive change
# bumps the version and prints the evolution report; any other change, a
# wrong `@schema` pin, a pending change under --locked and a malformed lock
# are errors that leave the lock as it was.
# Usage: cmake -DHERALDC=<exe> -DSCRATCH=<dir> -P schema_evolution.cmake
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/heraldc.cmake)

file(REMOVE_RECURSE ${SCRATCH})
file(MAKE_DIRECTORY ${SCRATCH}/project/src)
set(src ${SCRATCH}/project/src/shop.herald)
set(out ${SCRATCH}/out)

function(write_event fields)
  file(WRITE ${src} "context shop\n\ntype Region = | Domestic | Abroad\n\n"
                    "${fields}\n")
endfunction()

# Runs heraldc; stops unless it exits with `expected`.
function(expect_exit expected)
  run_heraldc(o e status --color=never ${ARGN})
  if(NOT status EQUAL expected)
    string(REPLACE ";" " " shown "${ARGN}")
    message(FATAL_ERROR "heraldc ${shown}: exit ${status}, expected "
                        "${expected}\n--- stdout ---\n${o}--- stderr ---\n${e}")
  endif()
  set(out_text "${o}" PARENT_SCOPE)
  set(err_text "${e}" PARENT_SCOPE)
endfunction()

function(expect_match what text pattern)
  if(NOT text MATCHES "${pattern}")
    message(FATAL_ERROR "${what}: expected a match of '${pattern}' in\n${text}")
  endif()
endfunction()

function(expect_file path expected what)
  file(READ ${path} actual)
  if(NOT actual STREQUAL expected)
    message(FATAL_ERROR "${what}: ${path} holds\n${actual}\nexpected\n"
                        "${expected}")
  endif()
endfunction()

set(header "# Event schema and agent state versions (language reference, section 11).\n# Maintained by `heraldc build`: commit this file and review its diffs.\n")
set(lock_v1 "${header}\nevent shop.Paid 1\n  cents: Int\n  orderId: String\n")
set(lock_v2 "${header}\nevent shop.Paid 2\n  cents: Int\n  note: Option[String] = None\n  orderId: String\n  region: shop.Region = Region.Domestic\n")

# 1. Version 1. No lock anywhere above the sources: the build creates one in
#    the directory holding them, and reports nothing (no version changed).
write_event("event Paid = { orderId: String, cents: Int }")
expect_exit(0 build ${src} -o ${out})
if(NOT out_text STREQUAL "" OR NOT err_text STREQUAL "")
  message(FATAL_ERROR "a first build printed\n${out_text}${err_text}")
endif()
expect_file(${SCRATCH}/project/src/herald.schema.lock "${lock_v1}" "version 1")
file(READ ${out}/shop.h header_v1)
expect_match("version 1 stamp" "${header_v1}" "schema_version = 1;")

# The lock moves to the project root: found there by walking up, and not
# created again beside the sources. An unchanged program leaves it as is.
file(RENAME ${SCRATCH}/project/src/herald.schema.lock
     ${SCRATCH}/project/herald.schema.lock)
set(lock ${SCRATCH}/project/herald.schema.lock)
expect_exit(0 build ${src} -o ${out})
expect_file(${lock} "${lock_v1}" "an unchanged rebuild")
if(EXISTS ${SCRATCH}/project/src/herald.schema.lock)
  message(FATAL_ERROR "a build created a second lock beside the sources")
endif()

# 2. Added fields with defaults. `check` sees the change but never writes;
#    `--locked` refuses it (E0604).
write_event("event Paid = { orderId: String, cents: Int, region: Region = Region.Domestic, note: Option[String] = None }")
expect_exit(0 check ${src})
expect_file(${lock} "${lock_v1}" "check of an additive change")
expect_exit(1 build --locked ${src} -o ${out})
expect_match("--locked" "${err_text}"
  "shop.herald:5:7: error\\[E0604\\]: event 'shop.Paid' needs a schema lock change \\(version 1 -> 2\\), which --locked forbids")
expect_file(${lock} "${lock_v1}" "a --locked build")
expect_exit(1 check --locked ${src})
expect_match("check --locked" "${err_text}" "error\\[E0604\\]")

#    Version 2: the lock is bumped and the report printed.
expect_exit(0 build ${src} -o ${out})
set(report "schema: shop.Paid 1 -> 2\n  + note: Option[String] = None\n  + region: shop.Region = Region.Domestic\n")
if(NOT out_text STREQUAL report)
  message(FATAL_ERROR "evolution report:\n${out_text}expected\n${report}")
endif()
expect_file(${lock} "${lock_v2}" "version 2")
file(READ ${out}/shop.h header_v2)
expect_match("version 2 stamp" "${header_v2}" "schema_version = 2;")
expect_exit(0 build --locked ${src} -o ${out})
expect_file(${lock} "${lock_v2}" "a --locked build of an up-to-date lock")
# --locked only verifies: a lock up to date but not in canonical form (a
# comment added by hand) is accepted and left as it is.
file(APPEND ${lock} "# reviewed\n")
expect_exit(0 build --locked ${src} -o ${out})
expect_file(${lock} "${lock_v2}# reviewed\n" "a --locked build")
expect_exit(0 build ${src} -o ${out})
expect_file(${lock} "${lock_v2}" "a build rewriting the lock in canonical form")

# 3. A field removed and one added without a default: the error names each,
#    the lock and the generated code stay at version 2.
write_event("event Paid = { orderId: String, region: Region = Region.Domestic, note: Option[String] = None, total: Int }")
expect_exit(1 build ${src} -o ${out})
expect_match("removed field" "${err_text}" "error\\[E0601\\]: event 'shop.Paid' changed in a way older consumers cannot read")
expect_match("removed field" "${err_text}" "note: field 'cents' removed \\(was 'Int'\\)")
expect_match("field without default" "${err_text}" "note: field 'total' added without a default")
expect_file(${lock} "${lock_v2}" "a non-additive change")
expect_file(${out}/shop.h "${header_v2}" "generated code after an error")

# 4. A wrong pin on an otherwise unchanged event.
write_event("@schema(1) event Paid = { orderId: String, cents: Int, region: Region = Region.Domestic, note: Option[String] = None }")
expect_exit(1 build ${src} -o ${out})
expect_match("wrong pin" "${err_text}" "error\\[E0602\\]: event 'shop.Paid' is declared '@schema\\(1\\)' but its computed version is 2")
expect_file(${lock} "${lock_v2}" "a wrong pin")
write_event("@schema(2) event Paid = { orderId: String, cents: Int, region: Region = Region.Domestic, note: Option[String] = None }")
expect_exit(0 build ${src} -o ${out})
expect_file(${lock} "${lock_v2}" "the right pin")

# 5. A malformed lock: the error names the file and the line; `--schema-lock`
#    picks a lock anywhere.
file(WRITE ${SCRATCH}/broken.lock "event shop.Paid 2\n  cents Int\n")
expect_exit(1 build --schema-lock ${SCRATCH}/broken.lock ${src} -o ${out})
expect_match("corrupt lock" "${err_text}" "broken.lock:2:1: error\\[E0603\\]: cannot read schema lock '[^']*broken.lock': expected '<field>: <type>'")
expect_file(${SCRATCH}/broken.lock "event shop.Paid 2\n  cents Int\n" "a corrupt lock")
