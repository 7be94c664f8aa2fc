#include "build.h"
#include "write/../base/util.h"
