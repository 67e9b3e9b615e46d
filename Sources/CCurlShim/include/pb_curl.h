// libcurl for pushbox's attachment downloads. curl_easy_setopt is variadic, which Swift cannot
// call, so each option kind gets one typed setter here. Imported only by PushboxFetch.
#ifndef PB_CURL_H
#define PB_CURL_H

#include <curl/curl.h>

/// libcurl's version line ("libcurl/7.88.1 OpenSSL/3.0.17 …").
const char *pb_curl_version(void);

/// Sets a long-valued option (timeouts, flags, counts).
CURLcode pb_curl_set_long(CURL *curl, CURLoption option, long value);
/// Sets a string option (URL, protocol lists).
CURLcode pb_curl_set_string(CURL *curl, CURLoption option, const char *value);
/// Sets a curl_off_t option (CURLOPT_MAXFILESIZE_LARGE).
CURLcode pb_curl_set_offset(CURL *curl, CURLoption option, curl_off_t value);
/// Sets a pointer option (WRITEDATA, XFERINFODATA).
CURLcode pb_curl_set_pointer(CURL *curl, CURLoption option, void *value);

typedef size_t (*pb_curl_write_fn)(char *data, size_t size, size_t count, void *context);
typedef int (*pb_curl_progress_fn)(void *context, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);

CURLcode pb_curl_set_write_function(CURL *curl, pb_curl_write_fn fn);
CURLcode pb_curl_set_progress_function(CURL *curl, pb_curl_progress_fn fn);
CURLcode pb_curl_set_header_function(CURL *curl, pb_curl_write_fn fn);

/// CURLINFO getters with fixed result types.
CURLcode pb_curl_get_long(CURL *curl, CURLINFO info, long *value);
CURLcode pb_curl_get_string(CURL *curl, CURLINFO info, char **value);

#endif
