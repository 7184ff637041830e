# `heraldc graph examples/payment`: the DOT text shows every context as a
# cluster and PaymentConfirmed flowing from Order.markPaid to both
# notification services, each delivery labelled with its pattern.
# Usage: cmake -DHERALDC=<exe> -DINPUT=<examples/payment> -P graph_example.cmake
cmake_minimum_required(VERSION 3.25)

include(${CMAKE_CURRENT_LIST_DIR}/heraldc.cmake)

run_heraldc(out err status graph ${INPUT})
if(NOT status EQUAL 0 OR NOT err STREQUAL "")
  message(FATAL_ERROR "heraldc graph: exit ${status}, expected 0 and no "
                      "diagnostics\n${err}")
endif()

set(missing "")
# Each line must appear whole in the output. (A function parameter keeps the
# semicolons that end DOT statements.)
function(expect_line line)
  string(FIND "\n${out}" "\n${line}\n" at)
  if(at EQUAL -1)
    set(missing "${missing}  ${line}\n" PARENT_SCOPE)
  endif()
endfunction()

expect_line("digraph herald_flow {")
expect_line("  subgraph \"cluster_chat.rooms\" {")
expect_line("    label=\"chat.rooms\";")
expect_line("  subgraph \"cluster_commerce.notifications\" {")
expect_line("    label=\"commerce.notifications\";")
expect_line("  subgraph \"cluster_commerce.order\" {")
expect_line("    label=\"commerce.order\";")
expect_line("  subgraph \"cluster_fx\" {")
expect_line("    label=\"fx\";")
expect_line("    \"commerce.order.PaymentConfirmed\" [label=\"PaymentConfirmed\", shape=ellipse, style=filled, fillcolor=lightyellow];")
expect_line("    \"commerce.order.Order.markPaid\" [label=\"Order.markPaid\", shape=box, style=rounded];")
expect_line("  \"commerce.order.Order.markPaid\" -> \"commerce.order.PaymentConfirmed\" [label=\"emits\"];")
expect_line("  \"commerce.order.PaymentConfirmed\" -> \"commerce.notifications.OnDomesticPayment\" [label=\"{ region: Region.Domestic, .. }\"];")
expect_line("  \"commerce.order.PaymentConfirmed\" -> \"commerce.notifications.OnInternationalPayment\" [label=\"{ region: Region.International, .. }\"];")
expect_line("}")

if(NOT missing STREQUAL "")
  message(FATAL_ERROR "heraldc graph ${INPUT} lacks these lines:\n${missing}"
                      "--- stdout ---\n${out}")
endif()
