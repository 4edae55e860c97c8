// Debian's libjemalloc-dev (jemalloc 5.3) installs this header without the je_ prefix: linking
// the library replaces malloc for the whole process, Swift's allocations included.
#include <jemalloc/jemalloc.h>
