# The shared store (issue 19): the Redis client and the shared limits' scripts, each against a
# private redis-server the tests start on a free loopback port. The pools and engines on the
# store are tested with their own (pool_tests, engine_tests).
structure_add_tests(NAME shared_store_tests LABEL registry
  SOURCES
    registry/redis_client_test.cc
    registry/shared_limit_test.cc
  LIBS structure_redis structure_providers)
