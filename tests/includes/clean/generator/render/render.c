#include "model/site.h"
#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
