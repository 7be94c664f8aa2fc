#include "model/site.h"
#include "build.h"
