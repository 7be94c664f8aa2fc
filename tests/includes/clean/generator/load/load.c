#include "model/site.h"
#include <yaml.h>
