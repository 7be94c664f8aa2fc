#include "base/util.h"
#include "simcore.h"
