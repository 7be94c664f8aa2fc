#include "draw/draw.h"
#include <cairo-svg.h>
#include <fontconfig/fontconfig.h>
