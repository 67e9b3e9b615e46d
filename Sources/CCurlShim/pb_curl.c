#include "pb_curl.h"

CURLcode pb_curl_set_long(CURL *curl, CURLoption option, long value) { return curl_easy_setopt(curl, option, value); }
CURLcode pb_curl_set_string(CURL *curl, CURLoption option, const char *value) { return curl_easy_setopt(curl, option, value); }
CURLcode pb_curl_set_offset(CURL *curl, CURLoption option, curl_off_t value) { return curl_easy_setopt(curl, option, value); }
CURLcode pb_curl_set_pointer(CURL *curl, CURLoption option, void *value) { return curl_easy_setopt(curl, option, value); }
CURLcode pb_curl_set_write_function(CURL *curl, pb_curl_write_fn fn) { return curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, fn); }
CURLcode pb_curl_set_progress_function(CURL *curl, pb_curl_progress_fn fn) { return curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, fn); }
CURLcode pb_curl_get_long(CURL *curl, CURLINFO info, long *value) { return curl_easy_getinfo(curl, info, value); }
CURLcode pb_curl_get_string(CURL *curl, CURLINFO info, char **value) { return curl_easy_getinfo(curl, info, value); }
CURLcode pb_curl_set_header_function(CURL *curl, pb_curl_write_fn fn) { return curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, fn); }

const char *pb_curl_version(void) { return curl_version(); }
