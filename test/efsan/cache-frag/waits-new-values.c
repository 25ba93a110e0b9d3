// A consumer much faster than its producer polls the head a few dozen
// times per item, and between two of its samples (a thousand accesses
// apart) the head has changed: no run of one unchanged value. Those polls
// are waits all the same: side by side the consumer gets no further ahead
// than the items the producer made. Before, its clock counted them as work
// and ran 7-14 times the producer's accesses (16-23 million against 1.6-2.2
// million), and their use of the ring's line met on the clock for a
// fraction of the run (claims 0.03-0.25 from run to run); now a sampled
// load of the address of the thread's previous sample, of bytes other
// threads write and it never does, does not move its clock (1.5 million
// against 1.1 million). Before the line has a record its shared summary
// says who writes the head (without it, 4 runs in 60 beside the lit suite
// had the consumer's clock at 4-11 times the producer's).
// verbosity=2 prints each thread's accesses beside the line's pricing; the
// check allows 3 times.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %s -o %t
// RUN: env ESAN_OPTIONS=verbosity=2:cache_frag_min_share=0 %run %t 2> %t.log
// RUN: %python %S/Inputs/check_clock_accesses.py %t.log
// RUN: %if taskset %{ env ESAN_OPTIONS=verbosity=2:cache_frag_min_share=0 taskset -c 0 %run %t 2> %t.pinned.log %}
// RUN: %if taskset %{ %python %S/Inputs/check_clock_accesses.py %t.pinned.log %}
#define ITEMS 400000L
#define SLOTS 256
#define PRODUCER_STEPS 100
#define CONSUMER_STEPS 0
#include "Inputs/spsc_ring.h"
