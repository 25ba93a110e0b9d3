//===-- efsan_cache_frag_members.c - member names for findings ------------===//
//
// With debug info, the pass describes the type of each global of struct or
// array type (in the module's table) and of each heap allocation whose type
// the allocation site tells (a call to __efsan_cache_frag_heap_type right
// after the allocation). A description is a layout string
// (docs/InstrumentationABI.md):
//   type   := 'b' size | 'a' count '*' type
//           | 's' size ['`' type-name '`'] '{' member* '}'
//   member := offset ':' name '=' type ';'
// The report walks it to name a finding's bytes as source expressions
// (`wstats[1].ops`, `slots[2].head`, `buf[3..10]`) and to split its line
// map at member boundaries. Arrays of scalars are one member: a range of
// their elements is named by index range, not element by element.
//
// Heap types are kept per allocation stack (the site's type does not change
// from one call to the next), set once: repeated allocations cost a lookup.
//
//===----------------------------------------------------------------------===//
#include "efsan_cache_frag_internal.h"

//===-- Heap allocation types ---------------------------------------------===//

// The calling thread's last allocation: __efsan_cache_frag_heap_type follows
// the allocation in the same thread at once.
static __thread uptr cf_last_alloc_address
    __attribute__((tls_model("initial-exec")));
static __thread u32 cf_last_alloc_stack
    __attribute__((tls_model("initial-exec")));

#define CF_HEAP_TYPE_SLOTS 16384
struct cf_heap_type {
  u32 stack_id; // 0: free; claimed with a compare-and-swap
  u32 ready;    // layout and holder are written
  const char *layout;
  const char *holder;
};
static struct cf_heap_type *cf_heap_types;

void cf_members_init(void) {
  cf_heap_types = (struct cf_heap_type *)efsan_mmap_noreserve(
      CF_HEAP_TYPE_SLOTS * sizeof(struct cf_heap_type));
}

void cf_members_note_alloc(uptr address, u32 stack_id) {
  cf_last_alloc_address = address;
  cf_last_alloc_stack = stack_id;
}

static u32 cf_heap_type_slot(u32 stack_id) {
  return (u32)(((u64)stack_id * 0x9e3779b97f4a7c15ull) >> 50) &
         (CF_HEAP_TYPE_SLOTS - 1);
}

EFSAN_INTERFACE void __efsan_cache_frag_heap_type(void *address,
                                                  const char *layout,
                                                  const char *holder) {
  u32 stack_id = cf_last_alloc_stack;
  if (!address || (uptr)address != cf_last_alloc_address || !stack_id ||
      !cf_heap_types)
    return;
  for (u32 probe = 0, slot = cf_heap_type_slot(stack_id); probe < 8;
       probe++, slot = (slot + 1) & (CF_HEAP_TYPE_SLOTS - 1)) {
    struct cf_heap_type *entry = &cf_heap_types[slot];
    u32 owner = cf_load(&entry->stack_id);
    if (owner == stack_id)
      return; // known already: the common case, no write
    if (owner)
      continue;
    if (!cf_cas(&entry->stack_id, &owner, stack_id)) {
      if (owner == stack_id)
        return;
      continue;
    }
    entry->layout = layout;
    entry->holder = holder;
    __atomic_store_n(&entry->ready, 1, __ATOMIC_RELEASE);
    return;
  }
}

bool cf_heap_type_of(u32 stack_id, const char **layout, const char **holder) {
  if (!stack_id || !cf_heap_types)
    return false;
  for (u32 probe = 0, slot = cf_heap_type_slot(stack_id); probe < 8;
       probe++, slot = (slot + 1) & (CF_HEAP_TYPE_SLOTS - 1)) {
    struct cf_heap_type *entry = &cf_heap_types[slot];
    u32 owner = cf_load(&entry->stack_id);
    if (!owner)
      return false;
    if (owner != stack_id)
      continue;
    if (!__atomic_load_n(&entry->ready, __ATOMIC_ACQUIRE))
      return false;
    *layout = entry->layout;
    *holder = entry->holder;
    return true;
  }
  return false;
}

//===-- Walking a layout --------------------------------------------------===//

static uptr cf_parse_number(const char **p) {
  uptr value = 0;
  while (**p >= '0' && **p <= '9')
    value = value * 10 + (uptr)(*(*p)++ - '0');
  return value;
}

// After a struct's size: its optional `type name`.
static const char *cf_skip_type_name(const char *p) {
  if (*p != '`')
    return p;
  p++;
  while (*p && *p != '`')
    p++;
  return *p ? p + 1 : p;
}

// The size of the type at p; *end (if not null) is where it ends.
static uptr cf_layout_size(const char *p, const char **end);

static const char *cf_skip_type(const char *p) {
  const char *end;
  cf_layout_size(p, &end);
  return end;
}

static uptr cf_layout_size(const char *p, const char **end) {
  uptr size = 0;
  switch (*p) {
  case 'b':
    p++;
    size = cf_parse_number(&p);
    break;
  case 'a': {
    p++;
    uptr count = cf_parse_number(&p);
    if (*p == '*')
      p++;
    size = count * cf_layout_size(p, &p);
    break;
  }
  case 's':
    p++;
    size = cf_parse_number(&p);
    p = cf_skip_type_name(p);
    if (*p == '{')
      p++;
    while (*p && *p != '}') {
      cf_parse_number(&p);
      while (*p && *p != '=')
        p++;
      if (*p)
        p = cf_skip_type(p + 1);
      if (*p == ';')
        p++;
    }
    if (*p == '}')
      p++;
    break;
  default:
    break;
  }
  if (end)
    *end = p;
  return size;
}

// A struct described without members (a C++ library type).
static bool cf_layout_is_opaque(const char *p) {
  if (*p != 's')
    return false;
  p++;
  cf_parse_number(&p);
  p = cf_skip_type_name(p);
  return p[0] == '{' && p[1] == '}';
}

// A type named as one member: a scalar, an opaque struct, or an array of
// them.
static bool cf_layout_is_leaf(const char *p) {
  while (*p == 'a') {
    p++;
    cf_parse_number(&p);
    if (*p == '*')
      p++;
  }
  return *p == 'b' || cf_layout_is_opaque(p);
}

struct cf_member_walk {
  char *name;
  uptr size, at;
  uptr leaf_start, leaf_end; // the member's bytes in the object
  bool padding;
};

static void cf_append(struct cf_member_walk *w, const char *text, uptr a,
                      uptr b, int kind) {
  if (w->at >= w->size)
    return;
  if (kind == 0)
    w->at += efsan_snprintf(w->name + w->at, w->size - w->at, "%s", text);
  else if (kind == 1)
    w->at += efsan_snprintf(w->name + w->at, w->size - w->at, "[%zu]", a);
  else
    w->at += efsan_snprintf(w->name + w->at, w->size - w->at, "[%zu..%zu]", a,
                            b);
}

// Names [offset, offset + length) of the type at p, whose first byte is at
// base in the object.
static void cf_walk(const char *p, uptr base, uptr offset, uptr length,
                    struct cf_member_walk *w) {
  const char *end;
  uptr size = cf_layout_size(p, &end);
  w->leaf_start = base;
  w->leaf_end = base + size;
  if (*p == 'b' || cf_layout_is_opaque(p))
    return;
  if (*p == 'a') {
    const char *element = p + 1;
    cf_parse_number(&element);
    if (*element == '*')
      element++;
    uptr element_size = cf_layout_size(element, 0);
    if (!element_size)
      return;
    uptr first = offset / element_size;
    uptr last = (offset + length - 1) / element_size;
    if (cf_layout_is_leaf(element)) {
      // Arrays of scalars are one member, named by the elements used;
      // multi-dimensional ones by their first index.
      if (first == last)
        cf_append(w, 0, first, 0, 1);
      else
        cf_append(w, 0, first, last, 2);
      return;
    }
    if (first != last) {
      cf_append(w, 0, first, last, 2);
      return;
    }
    cf_append(w, 0, first, 0, 1);
    cf_walk(element, base + first * element_size, offset - first * element_size,
            length, w);
    return;
  }
  // A struct: the member holding the first byte (the line map splits at
  // member boundaries, so the range is in one member).
  p++;
  cf_parse_number(&p);
  p = cf_skip_type_name(p);
  if (*p == '{')
    p++;
  while (*p && *p != '}') {
    uptr member_offset = cf_parse_number(&p);
    if (*p == ':')
      p++;
    const char *name = p;
    while (*p && *p != '=')
      p++;
    uptr name_length = (uptr)(p - name);
    if (!*p)
      break;
    const char *type = ++p;
    const char *type_end;
    uptr member_size = cf_layout_size(type, &type_end);
    p = type_end;
    if (*p == ';')
      p++;
    if (offset < member_offset || offset >= member_offset + member_size)
      continue;
    if (name_length && w->at + name_length + 2 < w->size) {
      w->name[w->at++] = '.';
      efsan_internal_memcpy(w->name + w->at, name, name_length);
      w->at += name_length;
      w->name[w->at] = 0;
    }
    cf_walk(type, base + member_offset, offset - member_offset, length, w);
    return;
  }
  // No member holds it: padding between members or at the end.
  w->padding = true;
  w->leaf_start = base + offset;
  w->leaf_end = base + offset + 1;
}

bool cf_member_name(const char *layout, const char *holder, bool pointer,
                    uptr object_size, uptr offset, uptr length, char *name,
                    uptr size, uptr *member_start, uptr *member_end) {
  if (!layout || !*layout || !length || !size)
    return false;
  uptr total = cf_layout_size(layout, 0);
  if (!total)
    return false;
  struct cf_member_walk w = {name, size, 0, 0, total, false};
  name[0] = 0;
  cf_append(&w, holder ? holder : "", 0, 0, 0);
  uptr element = 0;
  if (pointer) {
    // A heap block is used through a pointer: p->member for one object,
    // p[i].member for an array of them.
    element = offset / total;
    offset -= element * total;
    if (object_size > total || *layout != 's') {
      cf_append(&w, 0, element, 0, 1);
    } else if (w.at + 2 < w.size) {
      w.name[w.at++] = '-';
      w.name[w.at] = 0;
    }
  }
  if (offset + length > total)
    length = total - offset;
  uptr at = w.at;
  cf_walk(layout, element * total, offset, length, &w);
  // "p-" then ".member": p->member.
  if (w.at > at && name[at] == '.' && at && name[at - 1] == '-') {
    name[at] = '>';
  } else if (at && name[at - 1] == '-') {
    name[--w.at] = 0;
  }
  if (w.padding)
    cf_append(&w, " (padding)", 0, 0, 0);
  *member_start = w.leaf_start;
  *member_end = w.leaf_end;
  return true;
}

// The struct that is the element of an array (or, for a heap block, the
// block's own type) holding offset: its source name, size and first member.
bool cf_member_element(const char *layout, bool pointer, uptr offset,
                       char *type_name, uptr name_size, uptr *element_size,
                       char *first_member, uptr member_size) {
  const char *p = layout;
  const char *element = 0;
  if (pointer && *p == 's') {
    element = p;
  } else {
    // Down the arrays and members holding offset, to the innermost array of
    // structs.
    while (p && *p && *p != 'b') {
      if (*p == 'a') {
        const char *inner = p + 1;
        cf_parse_number(&inner);
        if (*inner == '*')
          inner++;
        uptr size = cf_layout_size(inner, 0);
        if (!size)
          break;
        if (*inner == 's')
          element = inner;
        offset %= size;
        p = inner;
        continue;
      }
      // A struct: into the member holding offset.
      const char *q = p + 1;
      cf_parse_number(&q);
      q = cf_skip_type_name(q);
      if (*q == '{')
        q++;
      const char *next = 0;
      while (*q && *q != '}') {
        uptr member_offset = cf_parse_number(&q);
        while (*q && *q != '=')
          q++;
        if (!*q)
          break;
        const char *type = ++q;
        uptr size = cf_layout_size(type, &q);
        if (*q == ';')
          q++;
        if (offset >= member_offset && offset < member_offset + size) {
          next = type;
          offset -= member_offset;
          break;
        }
      }
      p = next;
    }
  }
  if (!element)
    return false;
  *element_size = cf_layout_size(element, 0);
  const char *q = element + 1;
  cf_parse_number(&q);
  type_name[0] = 0;
  if (*q == '`') {
    const char *name = ++q;
    while (*q && *q != '`')
      q++;
    uptr length = (uptr)(q - name);
    if (length >= name_size)
      length = name_size - 1;
    efsan_internal_memcpy(type_name, name, length);
    type_name[length] = 0;
    q = cf_skip_type_name(name - 1);
  }
  first_member[0] = 0;
  if (*q == '{') {
    q++;
    cf_parse_number(&q);
    if (*q == ':')
      q++;
    const char *name = q;
    while (*q && *q != '=')
      q++;
    uptr length = (uptr)(q - name);
    if (length >= member_size)
      length = member_size - 1;
    efsan_internal_memcpy(first_member, name, length);
    first_member[length] = 0;
  }
  return *element_size != 0;
}
