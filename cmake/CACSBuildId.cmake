# Writes OUT: "#define CACS_BUILD_ID "<16 hex digits>"", a digest of FILES
# (the plugins), for the front door. Run as: cmake -DOUT=... -DFILES=a;b -P
# The file changes only when the digest does, so the front door is rebuilt
# (and its binary, mtime and --version change) exactly when a plugin does:
# compiler caches that identify the compiler by any of those then miss.
set(all "")
foreach(f IN LISTS FILES)
  file(SHA256 "${f}" h)
  string(APPEND all "${h}")
endforeach()
string(SHA256 id "${all}")
string(SUBSTRING "${id}" 0 16 id)
set(text "#define CACS_BUILD_ID \"${id}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
  if(old STREQUAL text)
    return()
  endif()
endif()
file(WRITE "${OUT}" "${text}")
