// The system's zlib (Debian's zlib1g-dev): gzread reads gzip and plain files alike.
#include <zlib.h>
