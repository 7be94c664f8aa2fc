#include "base/b.h"
