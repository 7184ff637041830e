# HERALD_SANITIZE applies to every target so that sanitized libraries and
# tests link consistently.
if(HERALD_SANITIZE)
  add_compile_options(-fsanitize=${HERALD_SANITIZE} -fno-omit-frame-pointer
                      -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${HERALD_SANITIZE})
endif()
