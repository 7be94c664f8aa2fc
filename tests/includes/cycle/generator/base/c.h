#include "base/a.h"
