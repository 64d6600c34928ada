# HttpServer (http/) against slow and idle clients: read deadlines, the connection cap and
# the keep-alive limit, over raw loopback sockets (label apps).
structure_add_tests(NAME http_tests LABEL apps
  SOURCES http/http_server_limits_test.cc
  LIBS structure_http)
