# `structure batch` (issue 8): the pure batch logic (line parsing, journal, reorder buffer,
# progress, the driver over an abstract submit function) and the command.
add_library(structure_batch STATIC
  ${CMAKE_CURRENT_LIST_DIR}/batch/batch_files.cc
  ${CMAKE_CURRENT_LIST_DIR}/batch/batch_line.cc
  ${CMAKE_CURRENT_LIST_DIR}/batch/batch_runner.cc
  ${CMAKE_CURRENT_LIST_DIR}/batch/journal.cc
  ${CMAKE_CURRENT_LIST_DIR}/batch/output_lock.cc
  ${CMAKE_CURRENT_LIST_DIR}/batch/progress.cc
  ${CMAKE_CURRENT_LIST_DIR}/batch/reorder_buffer.cc
  ${CMAKE_CURRENT_LIST_DIR}/batch/shard.cc)
# --stats FILE: the engine's metrics of the run as one JSON document (issue 17.2).
target_sources(structure_batch PRIVATE ${CMAKE_CURRENT_LIST_DIR}/batch/stats_file.cc)
target_link_libraries(structure_batch PUBLIC structure_content structure_base Threads::Threads)

# `structure batch --provider-batch` (issue 18): rounds of provider batch jobs, their durable
# state beside OUT, and the batch APIs' control calls over the curl transport.
add_library(structure_provider_batch STATIC
  ${CMAKE_CURRENT_LIST_DIR}/batch/batch_client.cc
  ${CMAKE_CURRENT_LIST_DIR}/batch/batch_record.cc
  ${CMAKE_CURRENT_LIST_DIR}/batch/batch_state.cc
  ${CMAKE_CURRENT_LIST_DIR}/batch/http_client.cc
  ${CMAKE_CURRENT_LIST_DIR}/batch/provider_batch.cc
  ${CMAKE_CURRENT_LIST_DIR}/batch/provider_batch_progress.cc
  ${CMAKE_CURRENT_LIST_DIR}/batch/provider_batch_rounds.cc)
target_link_libraries(structure_provider_batch PUBLIC structure_batch structure_providers
  structure_transport structure_config)

list(APPEND STRUCTURE_APP_SOURCES structure/cmd_batch.cc structure/provider_batch_command.cc)
list(APPEND STRUCTURE_APP_LIBS structure_batch structure_provider_batch)
