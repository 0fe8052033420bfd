#include "CSink.h"

void obsbench_sink(const void *value) { (void)value; }
