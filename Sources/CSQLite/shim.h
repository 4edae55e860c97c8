// The system's SQLite (Debian's libsqlite3-dev), as iOS's call directory service uses SQLite.
#include <sqlite3.h>
