# The shared store (issue 19): the Redis client against a private redis-server the tests start
# on a free loopback port.
structure_add_tests(NAME shared_store_tests LABEL registry
  SOURCES
    registry/redis_client_test.cc
  LIBS structure_redis)
