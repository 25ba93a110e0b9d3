// gnulib's xnmalloc and XNMALLOC (lbzip2's lib/xalloc.h): an overflow check,
// then xmalloc; static inline, so that it is inlined into every caller.
void *xmalloc(size_t n) __attribute__((malloc, alloc_size(1)));
__attribute__((noreturn)) void xalloc_die_overflow(void);
static inline void *xnmalloc(size_t n, size_t s) {
  if (s && n > (size_t)-1 / s)
    xalloc_die_overflow();
  return xmalloc(n * s);
}
#define XNMALLOC(n, t) ((t *)xnmalloc(n, sizeof(t)))
