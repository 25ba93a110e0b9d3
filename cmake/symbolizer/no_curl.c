// libLLVMDebuginfod's HTTP client calls libcurl, whose shared library (and
// the 40 it loads) would cost the start-up that linking statically saves.
// The reports never fetch debug info over the network: every libcurl entry
// point it uses fails here, so with DEBUGINFOD_URLS set a lookup fails as
// if the server could not be reached, and symbolization goes on locally.
enum { kCurlFailedInit = 2 };

int curl_global_init(long flags) { (void)flags; return kCurlFailedInit; }
void curl_global_cleanup(void) {}
void *curl_easy_init(void) { return 0; }
void curl_easy_cleanup(void *handle) { (void)handle; }
int curl_easy_setopt(void *handle, int option, ...) {
  (void)handle, (void)option;
  return kCurlFailedInit;
}
int curl_easy_getinfo(void *handle, int info, ...) {
  (void)handle, (void)info;
  return kCurlFailedInit;
}
int curl_easy_perform(void *handle) { (void)handle; return kCurlFailedInit; }
const char *curl_easy_strerror(int code) {
  (void)code;
  return "debuginfod is not available in efsan's llvm-symbolizer";
}
void *curl_slist_append(void *list, const char *string) {
  (void)list, (void)string;
  return 0;
}
void curl_slist_free_all(void *list) { (void)list; }
