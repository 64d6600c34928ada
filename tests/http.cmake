# HttpServer (http/) against slow, idle and pipelining clients: read deadlines, the connection
# cap and the keep-alive limit, HEAD and absolute-form targets, over raw loopback sockets
# (label apps).
structure_add_tests(NAME http_tests LABEL apps
  SOURCES http/http_server_limits_test.cc http/http_stream_test.cc http/http_server_clients_test.cc
  LIBS structure_http)
