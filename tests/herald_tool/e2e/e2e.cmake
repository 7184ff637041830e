# `herald` over a database a real program wrote: the program
# (herald_tool_e2e_program) runs ten jobs with the Worker's gate closed, so
# all ten end as dead letters; the tool reports them, shows one, re-drives
# one and then the rest, each applied by the program's next start with the
# gate open; then replays the Counter from a sequence (dedup: no handler runs
# again) and with --force from a sequence and from a time (the handlers run
# again for exactly the replayed events).
#   cmake -DHERALD=<exe> -DPROGRAM=<exe> -DWORK=<dir> -P e2e.cmake
cmake_minimum_required(VERSION 3.25)

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(db ${WORK}/ops.db)

# program(<out> JOBS GATE): runs the program, expects exit 0, sets <out> to
# its JSON line.
function(program out jobs gate)
  execute_process(COMMAND ${PROGRAM} ${db} ${jobs} ${gate}
                  RESULT_VARIABLE status OUTPUT_VARIABLE stdout
                  ERROR_VARIABLE stderr)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "the program (${jobs} jobs, gate ${gate}) exited "
                        "${status}:\n${stdout}${stderr}")
  endif()
  message("program ${jobs} ${gate}: ${stdout}")
  set(${out} "${stdout}" PARENT_SCOPE)
endfunction()

# herald(<out> ARGS...): runs the tool, expects exit 0 and an empty stderr.
function(herald out)
  execute_process(COMMAND ${HERALD} --db ${db} ${ARGN}
                  RESULT_VARIABLE status OUTPUT_VARIABLE stdout
                  ERROR_VARIABLE stderr)
  if(NOT status EQUAL 0 OR NOT stderr STREQUAL "")
    message(FATAL_ERROR "herald ${ARGN} exited ${status}:\n${stdout}${stderr}")
  endif()
  message("herald ${ARGN}:\n${stdout}")
  set(${out} "${stdout}" PARENT_SCOPE)
endfunction()

# expect(JSON EXPECTED KEY...): the value at KEY... of JSON is EXPECTED.
function(expect json expected)
  string(JSON value ERROR_VARIABLE error GET "${json}" ${ARGN})
  if(error)
    message(FATAL_ERROR "no '${ARGN}' in ${json}: ${error}")
  endif()
  if(NOT value STREQUAL "${expected}")
    message(FATAL_ERROR "'${ARGN}' is '${value}', expected '${expected}' in\n${json}")
  endif()
endfunction()

# subscription(<out> STATUS_JSON NAME): that subscription's status object.
function(subscription out json name)
  string(JSON n LENGTH "${json}" subscriptions)
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON s GET "${json}" subscriptions ${i})
    string(JSON sname GET "${s}" name)
    if(sname STREQUAL name)
      set(${out} "${s}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "no subscription ${name} in\n${json}")
endfunction()

# Ten jobs with the gate closed: the Worker dead-letters each after its two
# attempts; the Counter runs all ten.
program(run 10 closed)
expect("${run}" 0 worker count)
expect("${run}" 10 counter count)
expect("${run}" 10 dead_letters)

herald(status status --json)
subscription(worker "${status}" ops.work.Worker)
expect("${worker}" ops.desk context)
expect("${worker}" 10 dead_letters)
expect("${worker}" 0 redriving)
expect("${worker}" 0 lag)
subscription(counter "${status}" ops.work.Counter)
expect("${counter}" 10 position)
expect("${counter}" 0 dead_letters)
expect("${status}" 10 logs 0 head)

herald(list dead-letters list --subscription ops.work.Worker --json)
string(JSON letters LENGTH "${list}")
if(NOT letters EQUAL 10)
  message(FATAL_ERROR "${letters} dead letters listed, expected 10")
endif()
expect("${list}" ops.desk.Job 0 event_type)
expect("${list}" 1 0 sequence)
expect("${list}" 2 0 attempts)
expect("${list}" "the gate is closed for job 1"
       0 last_error)
string(JSON first GET "${list}" 0 event_id)

herald(show dead-letters show ${first} --json)
expect("${show}" 1 0 payload n)
expect("${show}" ops.desk.Desk/front 0 publisher)
expect("${show}" ON 0 payload_is_json)
herald(show_text dead-letters show ${first})
if(NOT show_text MATCHES "the gate is closed for job 1")
  message(FATAL_ERROR "show does not name the last error")
endif()

# Re-drive the first letter; the next start (gate open) delivers it.
herald(marked dead-letters redrive ${first} --json)
expect("${marked}" 1 marked)
herald(status status --json)
subscription(worker "${status}" ops.work.Worker)
expect("${worker}" 1 redriving)
program(run 0 open)
expect("${run}" 1 worker count)
expect("${run}" 1 worker sum)
expect("${run}" 9 dead_letters)

# Re-drive the other nine at once.
herald(marked dead-letters redrive --all --json)
expect("${marked}" 9 marked)
expect("${marked}" 0 already_marked)
program(run 0 open)
expect("${run}" 10 worker count)
expect("${run}" 55 worker sum)
expect("${run}" 0 dead_letters)
herald(status status --json)
subscription(worker "${status}" ops.work.Worker)
expect("${worker}" 0 dead_letters)
expect("${worker}" 10 position)

# Replay without --force: every replayed event was delivered, so dedup
# acknowledges it and the Counter's handler does not run again.
herald(replayed replay ops.work.Counter --from-sequence 1 --json)
expect("${replayed}" 10 requeued)
expect("${replayed}" 10 dedup_skips)
program(run 0 open)
expect("${run}" 10 counter count)
expect("${run}" 10 deduplicated)

# With --force from sequence 6: jobs 6..10 run again.
herald(replayed replay ops.work.Counter --from-sequence 6 --force --json)
expect("${replayed}" 5 requeued)
expect("${replayed}" 0 dedup_skips)
program(run 0 open)
expect("${run}" 15 counter count)
expect("${run}" 95 counter sum)
expect("${run}" 10 worker count)

# With --force from a time before the first job: all ten again, in order
# (a Tally only sums, so the order shows in the Counter's sum only as a
# whole; per-publisher order is the replay's contract, checked by the
# tool's own tests).
herald(replayed replay ops.work.Counter --from-time 2000-01-01T00:00:00Z
       --publisher ops.desk.Desk/front --force --json)
expect("${replayed}" 10 requeued)
program(run 0 open)
expect("${run}" 25 counter count)
expect("${run}" 150 counter sum)
expect("${run}" 0 dead_letters)
message("herald over the program's database: listed, showed, re-drove and replayed")
