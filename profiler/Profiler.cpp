#include "profiler/Profiler.h"
