// A program whose working set per sample period it knows exactly, for the
// tests of estimated snapshots (estimated-snapshots.c and friends).
//
// usage: estimates LINES STRIDE THREADS [SMALL]
//
// Touches LINES lines of a heap buffer, one every STRIDE lines (1: dense,
// 8: one line per shadow word), over and over, split among THREADS threads,
// until 13 samples have passed (an odd number: the phases' switches do not
// fall on the samples where every level is due). Then, with SMALL, marks a
// phase "small" and touches SMALL lines for 13 samples, then a phase "big
// again" with LINES.
// Prints, for each stretch, the first and last sample whose period lies
// entirely within it (WINDOW<n>_LO, WINDOW<n>_HI: sample numbers from 1)
// and the lines it touched (WINDOW<n>_LINES), for check_report.py --vars.
// Each pass after the first takes far less than a period (a period is 20 ms of
// the program's CPU time with sample_clock=cpu), so every period that lies
// within a stretch saw every line of it, however the threads were scheduled.
#include <pthread.h>
#include <sanitizer/efsan_interface.h>
#include <stdio.h>
#include <stdlib.h>

enum { kLine = 64, kMaxThreads = 8, kSamplesPerStretch = 13 };

static char *buffer;
static long stride, threads;
static long active_lines; // the stretch's lines, split among the threads
static volatile unsigned stop_at_sample;

struct part {
  long index;
};

static void pass(long first, long count) {
  for (long i = first; i < first + count; i++)
    buffer[i * stride * kLine]++;
}

// The threads pass over their parts in lockstep (a barrier after each pass),
// so a period that holds two barriers saw every line, however unevenly the
// threads were scheduled; they all stop after the same pass.
static pthread_barrier_t barrier;
static volatile int done;

static void *worker(void *arg) {
  long index = ((struct part *)arg)->index;
  long share = active_lines / threads;
  long first = index * share;
  long count = index == threads - 1 ? active_lines - first : share;
  for (;;) {
    pass(first, count);
    if (threads > 1) {
      if (pthread_barrier_wait(&barrier) == PTHREAD_BARRIER_SERIAL_THREAD)
        done = __efsan_get_sample_count() >= stop_at_sample;
      pthread_barrier_wait(&barrier);
    } else {
      done = __efsan_get_sample_count() >= stop_at_sample;
    }
    if (done)
      return 0;
  }
}

static void stretch(int number, long lines) {
  active_lines = lines;
  done = 0;
  // The first pass over fresh lines is slow (page faults, the lines' first
  // marks): on a loaded VM it took two periods of CPU time, so the first
  // periods of the window saw part of the lines. One pass over the same
  // lines before the window opens touches nothing the stretch does not.
  pass(0, lines);
  unsigned started = __efsan_get_sample_count();
  stop_at_sample = started + kSamplesPerStretch;
  pthread_t tids[kMaxThreads];
  struct part parts[kMaxThreads];
  for (long t = 1; t < threads; t++) {
    parts[t].index = t;
    pthread_create(&tids[t], 0, worker, &parts[t]);
  }
  parts[0].index = 0;
  worker(&parts[0]);
  for (long t = 1; t < threads; t++)
    pthread_join(tids[t], 0);
  // Sample started + 1 covers time before the stretch began; sample
  // stop_at_sample came while the threads were still passing over the lines.
  printf("WINDOW%d_LO=%u\nWINDOW%d_HI=%u\nWINDOW%d_LINES=%ld\n", number,
         started + 2, number, stop_at_sample, number, lines);
}

int main(int argc, char **argv) {
  if (argc < 4)
    return 2;
  long lines = atol(argv[1]);
  stride = atol(argv[2]);
  threads = atol(argv[3]);
  long small = argc > 4 ? atol(argv[4]) : 0;
  if (lines < 1 || stride < 1 || threads < 1 || threads > kMaxThreads)
    return 2;
  buffer = aligned_alloc(kLine, lines * stride * kLine);
  pthread_barrier_init(&barrier, 0, (unsigned)threads);
  if (small) {
    __efsan_mark_phase("big");
    stretch(0, lines);
    __efsan_mark_phase("small");
    stretch(1, small);
    __efsan_mark_phase("big again");
    stretch(2, lines);
    __efsan_mark_phase(0);
  } else {
    stretch(0, lines);
  }
  printf("BUFFER_LINES=%ld\n", lines * stride);
  return 0;
}
