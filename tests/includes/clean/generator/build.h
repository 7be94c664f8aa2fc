/* the orchestrator */
#include "model/site.h"
