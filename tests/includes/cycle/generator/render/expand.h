#include "render/page.h"
