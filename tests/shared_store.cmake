# The shared store: the Redis client and the shared limits' scripts, each against a
# private redis-server the tests start on a free loopback port. The pools and engines on the
# store are tested with their own (pool_tests, engine_tests).
structure_add_tests(NAME shared_store_tests LABEL registry
  SOURCES
    registry/redis_client_test.cc
    registry/shared_limit_test.cc
  LIBS structure_redis structure_providers)

# The shared store's acceptance runs: three `structure batch` processes on one simulator key,
# with and without the shared store (60 s window), and the store stopped mid-run (about 30 s).
# Label "long"; run in CI with the rest.
structure_add_tests(NAME shared_store_acceptance_tests LABEL long COST 100 USES_BINARY
  SOURCES apps/shared_store_acceptance_test.cc
  LIBS structure_base CURL::libcurl)
