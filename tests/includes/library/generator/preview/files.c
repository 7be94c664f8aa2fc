#include <stdio.h>
#include <microhttpd.h>
