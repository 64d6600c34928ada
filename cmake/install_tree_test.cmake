# Installs the build into a temporary prefix and fails when the installed tree holds anything
# but the public API, what links it and the program: the headers of include/structure/ (exactly
# those), the static libraries, the CMake package files, the bundled schemas and the `structure`
# executable. It also fails when an installed header includes anything but the standard library
# and other public headers.
# Invoked as: cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DINCLUDEDIR=... -DLIBDIR=...
#   -DDATADIR=... -DBINDIR=... -P this
file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")
include(${CMAKE_CURRENT_LIST_DIR}/install_into.cmake)
structure_install_into("${BUILD_DIR}" "${prefix}")

file(GLOB public RELATIVE "${SOURCE_DIR}/include/structure" "${SOURCE_DIR}/include/structure/*")
file(GLOB_RECURSE installed RELATIVE "${prefix}" "${prefix}/*")
set(headers "")
set(unexpected "")
foreach(f IN LISTS installed)
  if(f MATCHES "^${INCLUDEDIR}/structure/([^/]+\\.h)$")
    list(APPEND headers "${CMAKE_MATCH_1}")
  elseif(f MATCHES "^${LIBDIR}/libstructure_[a-z_]+\\.a$"
         OR f MATCHES "^${LIBDIR}/cmake/structure/[A-Za-z_-]+\\.cmake$"
         OR f MATCHES "^${DATADIR}/structure/schemas/[^/]+$"
         OR f STREQUAL "${BINDIR}/structure")
  else()
    list(APPEND unexpected "${f}")
  endif()
endforeach()
if(unexpected)
  list(JOIN unexpected "\n  " shown)
  message(FATAL_ERROR "installed besides the public API and its libraries:\n  ${shown}")
endif()
list(SORT headers)
list(SORT public)
if(NOT headers STREQUAL public)
  message(FATAL_ERROR "installed headers (${headers}) are not include/structure/ (${public})")
endif()

set(bad "")
foreach(h IN LISTS headers)
  file(STRINGS "${prefix}/${INCLUDEDIR}/structure/${h}" includes REGEX "^[ \t]*#[ \t]*include")
  foreach(line IN LISTS includes)
    if(line MATCHES "\"" AND NOT line MATCHES "\"structure/[a-z_]+\\.h\"")
      list(APPEND bad "${h}: ${line}")
    elseif(line MATCHES "<([a-z_+]+)[/.>]" AND CMAKE_MATCH_1 MATCHES "^(caf|simdjson|toml|curl|boost|hiredis|re2|sqlite3|unicode)")
      list(APPEND bad "${h}: ${line}")
    endif()
  endforeach()
endforeach()
if(bad)
  list(JOIN bad "\n  " shown)
  message(FATAL_ERROR "public headers include what a user does not have:\n  ${shown}")
endif()
list(LENGTH headers n)
message(STATUS "install tree ok: ${n} public headers, libraries, package files, schemas")
