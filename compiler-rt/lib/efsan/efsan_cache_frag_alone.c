//===-- efsan_cache_frag_alone.c - the first thread's samples, in batches -===//
//
// How a sample reaches the line state machine (efsan_cache_frag_lines.c):
// at once, or, while the process has a single thread, logged and applied
// in batches, their line states prefetched first.
//
//===----------------------------------------------------------------------===//
#include "efsan_cache_frag_lines.h"

// While the process has a single thread, a sample can only change the plain
// state of its line (its thread, written, its sampled writes), and nothing
// reads a plain state but this state machine when it applies a later
// sample. The line states of a loop streaming through memory are seldom in
// any cache, and one miss per sample was a third of stream_triad's CPU time
// (measured for issue 24; see git history). So the samples of a thread that is alone
// are logged and applied in batches, their states prefetched first so that
// the misses overlap; in sampling order, and before any sample of a second
// thread (the creating thread applies its log when it creates one): every
// state ends as it would have, sample by sample. Such a thread also samples
// less often, each sample counting for several (efsan_cache_frag.c,
// cf_alone_weight): a written line's count grows by that many.
#define CF_ALONE_BATCH 256
struct cf_alone_sample {
  uptr line;
  u64 clock;
  uptr pc;
  u32 thread_plus1;
  u8 offset, length;
  bool is_write, locked_rmw;
  u8 weight; // the samples it counts for
  u16 loop_work;
};
struct cf_alone_log {
  u32 count;
  struct cf_alone_sample samples[CF_ALONE_BATCH];
};
// Mapped at the thread's first sample while alone: in practice only the
// main thread, and only until it creates a thread.
static __thread struct cf_alone_log *cf_alone_log
    __attribute__((tls_model("initial-exec")));

// What cf_apply_sample would find for most samples of a thread alone: a
// line it already holds, read again, or written again with its count of
// sampled writes already where it stops while the thread is alone.
static bool cf_alone_sample_changes_nothing(u32 value,
                                            const struct cf_alone_sample *s) {
  if ((value & CF_RECORD_BIT) || (value & CF_THREAD_MASK) != s->thread_plus1)
    return false;
  if (!s->is_write)
    return true;
  u32 writes = (value >> CF_WRITE_COUNT_SHIFT) & CF_WRITE_COUNT_MAX;
  return writes + 1 >= cf_prediction_samples;
}

void cf_lines_apply_alone_samples(void) {
  struct cf_alone_log *log = cf_alone_log;
  if (!log || !log->count)
    return;
  u32 n = log->count;
  u32 *states[CF_ALONE_BATCH];
  for (u32 i = 0; i < n; i++) {
    states[i] = cf_line_state(log->samples[i].line, log->samples[i].is_write);
    if (states[i])
      __builtin_prefetch(states[i], 1, 3);
  }
  for (u32 i = 0; i < n; i++) {
    struct cf_alone_sample *s = &log->samples[i];
    if (!states[i] || cf_alone_sample_changes_nothing(*states[i], s) ||
        (!s->is_write && !*states[i]))
      continue;
    cf_apply_sample(states[i], s->line, s->offset, s->length, s->is_write,
                    s->locked_rmw, s->loop_work, s->thread_plus1, s->clock,
                    s->pc, s->weight, true);
  }
  log->count = 0;
}

bool cf_sample_line(uptr line, uptr offset, uptr length, bool is_write,
                    bool locked_rmw, u32 loop_work, u32 thread_plus1,
                    u64 clock, uptr pc, u32 weight) {
  if (efsan_thread_count() < 2) {
    struct cf_alone_log *log = cf_alone_log;
    if (EFSAN_UNLIKELY(!log))
      log = cf_alone_log = (struct cf_alone_log *)efsan_mmap_noreserve(
          sizeof(struct cf_alone_log));
    struct cf_alone_sample *s = &log->samples[log->count];
    s->line = line;
    s->clock = clock;
    s->pc = pc;
    s->thread_plus1 = thread_plus1;
    s->offset = (u8)offset;
    s->length = (u8)length;
    s->is_write = is_write;
    s->locked_rmw = locked_rmw;
    s->loop_work = (u16)loop_work;
    s->weight = (u8)weight;
    if (++log->count == CF_ALONE_BATCH)
      cf_lines_apply_alone_samples();
    return false;
  }
  // A sample whose period began while the thread was alone but ended
  // after it created a thread without its period restarting (a runtime
  // thread created it) is applied here, with its weight: the line states
  // are shared now.
  cf_lines_apply_alone_samples();
  // A read of a line nobody has written makes no state (cf_apply_sample).
  u32 *state = cf_line_state(line, is_write);
  return state && cf_apply_sample(state, line, offset, length, is_write,
                                  locked_rmw, loop_work, thread_plus1, clock,
                                  pc, weight, false);
}
