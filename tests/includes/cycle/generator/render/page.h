#include "render/expand.h"
