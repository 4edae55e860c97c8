// glibc's allocator tuning (mallopt), which Swift's Glibc module does not import. Elsewhere
// (Darwin's allocator has no such knob) this module is empty.
#if defined(__linux__)
#include <malloc.h>
#endif
