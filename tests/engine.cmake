structure_add_tests(NAME engine_tests LABEL actors
  SOURCES actors/engine_test.cc
  LIBS structure_engine CURL::libcurl)
