# structure batch: pure parts and the driver over a fake engine, then the command end
# to end against `structure sim` (the SIGKILL/resume acceptance runs 5 000 lines).
structure_add_tests(NAME batch_tests LABEL apps
  SOURCES batch/batch_line_test.cc batch/journal_test.cc batch/reorder_buffer_test.cc
          batch/progress_test.cc batch/batch_runner_test.cc
          batch/shard_test.cc batch/batch_files_test.cc batch/output_lines_test.cc
  LIBS structure_batch)
structure_add_tests(NAME batch_cli_tests LABEL apps USES_BINARY
  SOURCES batch/batch_cli_test.cc batch/batch_cli_edges_test.cc
    batch/batch_stats_test.cc
  LIBS structure_base structure_batch CURL::libcurl)
# --provider-batch: the pure parts, then the command against the simulator's batch
# endpoints.
structure_add_tests(NAME provider_batch_tests LABEL apps
  SOURCES batch/batch_record_test.cc batch/batch_state_test.cc batch/provider_batch_progress_test.cc
          batch/http_client_test.cc
  LIBS structure_provider_batch)
structure_add_tests(NAME provider_batch_cli_tests LABEL apps COST 50 USES_BINARY
  SOURCES batch/provider_batch_cli_test.cc batch/provider_batch_shapes_test.cc
  LIBS structure_base CURL::libcurl)
