#include "simcore.h"
