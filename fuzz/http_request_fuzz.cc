// libFuzzer target: the HTTP/1.1 request parser of `structure serve` and `structure sim`
// (Boost.Beast's request parser with the server's header and body limits, then the request
// the handler sees: target split, headers, query parameters). The input is the bytes a client
// sends; a keep-alive stream of several requests is parsed one after another.
#include <cstddef>
#include <cstdint>
#include <string>

#include "http/detail/server_impl.h"

namespace bhttp = boost::beast::http;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  boost::asio::const_buffer rest(data, size);
  for (int requests = 0; requests < 8 && rest.size() > 0; ++requests) {
    bhttp::request_parser<bhttp::string_body> parser;
    parser.eager(true);
    parser.header_limit(64 * 1024);
    parser.body_limit(1024 * 1024);
    boost::beast::error_code ec;
    while (!parser.is_done()) {
      size_t used = parser.put(rest, ec);
      rest += used;
      if (ec == bhttp::error::need_more) {
        parser.put_eof(ec);  // the client closed: a partial message is an error
        break;
      }
      if (ec || used == 0) break;
    }
    if (ec || !parser.is_done()) return 0;
    structure::http::HttpRequest request = structure::http::ToHttpRequest(parser.release());
    (void)request.FindHeader("authorization");
    (void)request.FindHeader("Content-Type");
    for (const char* name : {"key", "alt", "", "a b"}) (void)request.QueryParam(name);
  }
  return 0;
}
