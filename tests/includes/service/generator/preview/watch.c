#include "model/site.h"
#include "load/board.h"
