#include "model/site.h"
