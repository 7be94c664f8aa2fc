#include <microhttpd.h>
