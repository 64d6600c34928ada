# Commands that call providers through the engine.
list(APPEND STRUCTURE_APP_SOURCES
  structure/check_flags.cc
  structure/engine_flags.cc
  structure/cmd_config.cc
  structure/cmd_providers.cc
  structure/cmd_run.cc)
list(APPEND STRUCTURE_APP_LIBS structure_engine)
