# The cross-build scenario of CMakeLists.txt.
#   cmake -DV1=<program> -DV2=<program> -DLOCK=<v2 lock> -DHERALDC=<heraldc>
#         -DSOURCE=<this directory> -DWORK=<scratch directory> -P evolve.cmake
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(DB "${WORK}/wallets.db")

function(run program)
  execute_process(COMMAND ${program} ${ARGN} RESULT_VARIABLE status
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    string(REPLACE ";" " " shown "${ARGN}")
    message(FATAL_ERROR "${program} ${shown}: exit ${status}\n${out}${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

function(expect what actual expected)
  if(NOT actual STREQUAL expected)
    message(FATAL_ERROR "${what}: got\n${actual}expected\n${expected}")
  endif()
endfunction()

# The v2 build bumped the state version and recorded when each store came.
file(READ ${LOCK} lock)
if(NOT lock MATCHES "\nagent evo\\.wallet\\.Wallet 2\n  balance: Int = initialiser\n  label: String = initialiser, since 2\n  limit: Int = initialiser, since 2\n")
  message(FATAL_ERROR "the v2 build did not bump Wallet to state 2:\n${lock}")
endif()

# Its build printed the evolution report (built here again, from the v1
# lock, into the scratch directory).
file(COPY_FILE "${SOURCE}/v1/herald.schema.lock" "${WORK}/herald.schema.lock")
execute_process(COMMAND ${HERALDC} build --color=never
                        --schema-lock "${WORK}/herald.schema.lock"
                        -o "${WORK}/generated" "${SOURCE}/v2/wallet.herald"
                RESULT_VARIABLE status OUTPUT_VARIABLE report
                ERROR_VARIABLE err)
expect("heraldc build exit" "${status}${err}" "0")
expect("evolution report" "${report}"
       "state: evo.wallet.Wallet 1 -> 2\n  + label: String = initialiser\n  + limit: Int = initialiser\n")

# 1. The v1 build saves three wallets, one of them also paid by a message,
#    and w9, which the v2 build never touches.
run(${V1} deposit "${DB}" w1 100 w2 200 w3 300 w9 1)
run(${V1} pay "${DB}" w1 5)
run(${V1} show "${DB}" w1 w2 w3)
expect("v1 wallets" "${out}" "w1 105\nw2 200\nw3 300\n")

# 2. The v2 build opens them: each keeps its balance and reads the new
#    stores' initialisers; new calls and messages work on them.
run(${V2} show "${DB}" w1 w2 w3)
expect("v1 wallets read by v2" "${out}"
       "w1 105 500 standard\nw2 200 500 standard\nw3 300 500 standard\n")
run(${V2} deposit "${DB}" w2 50)
run(${V2} relabel "${DB}" w2 gold)
run(${V2} pay "${DB}" w1 1)
run(${V2} deposit "${DB}" w4 7)
run(${V2} show "${DB}" w1 w2 w3 w4)
expect("v2 wallets" "${out}"
       "w1 106 500 standard\nw2 250 500 gold\nw3 300 500 standard\nw4 7 500 standard\n")
run(${V2} dead "${DB}")
expect("v2 dead messages" "${out}" "")

# 3. The v1 build over the v2 database: a wallet the v2 build saved is
#    refused with the reason (a host call raises it, a message to it is a
#    dead message with it), never reset; a wallet v1 can read still works.
set(newer "stored state of agent evo.wallet.Wallet w2 is at state version 2, newer than version 1 that this build reads")
run(${V1} show "${DB}" w2)
if(NOT out MATCHES "^w2 refused: [^\n]*wallets\\.db: ${newer}")
  message(FATAL_ERROR "v1 did not refuse the newer state of w2:\n${out}")
endif()
run(${V1} pay "${DB}" w2 9)
run(${V1} dead "${DB}")
# One attempt: the refusal is not retried.
if(NOT out MATCHES "^w2 deposit 1: [^\n]*wallets\\.db: ${newer}[^\n]*\n$")
  message(FATAL_ERROR "v1's message to w2 is not a dead message with the "
                      "reason after one attempt:\n${out}")
endif()
run(${V1} show "${DB}" w9)
expect("w9 read by v1" "${out}" "w9 1\n")
run(${V2} show "${DB}" w2 w9)
expect("w2 after v1 refused it" "${out}" "w2 250 500 gold\nw9 1 500 standard\n")
