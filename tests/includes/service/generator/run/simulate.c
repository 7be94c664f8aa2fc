#include "sim_internal.h"
#include "missing.h"
