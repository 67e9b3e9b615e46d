// libnghttp2 (libnghttp2-dev): HTTP/2 framing, HPACK, flow control, without I/O.
// Imported only by PushboxIntake; its API imports into Swift without wrappers.
#include <nghttp2/nghttp2.h>
