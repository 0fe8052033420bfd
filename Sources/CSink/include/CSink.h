#ifndef OBSBENCH_CSINK_H
#define OBSBENCH_CSINK_H

/// Takes the address of a value and does nothing with it. Compiled apart from the Swift code
/// that calls it, so the optimiser must assume it reads the value: a loop whose results go here
/// cannot be deleted. What `blackHole` is built on.
void obsbench_sink(const void *value);

#endif
