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

// A struct's parts: its optional `type name` after the size, then its
// members, each `offset ':' name '=' type ';'`.
struct cf_member {
  uptr offset, size;
  const char *name; // not terminated: name_length bytes
  uptr name_length;
  const char *type;
};

static uptr cf_layout_size(const char *p, const char **end);

// For the struct at p ('s'): its source name (null if none) and where its
// members start.
static const char *cf_struct_members(const char *p, const char **type_name,
                                     uptr *type_name_length) {
  p++;
  cf_parse_number(&p);
  *type_name = 0;
  *type_name_length = 0;
  if (*p == '`') {
    const char *name = ++p;
    while (*p && *p != '`')
      p++;
    *type_name = name;
    *type_name_length = (uptr)(p - name);
    if (*p)
      p++;
  }
  return *p == '{' ? p + 1 : p;
}

// Reads the member at *p into m and moves past it; false at the end of the
// member list.
static bool cf_next_member(const char **p, struct cf_member *m) {
  const char *q = *p;
  if (!*q || *q == '}')
    return false;
  m->offset = cf_parse_number(&q);
  if (*q == ':')
    q++;
  m->name = q;
  while (*q && *q != '=')
    q++;
  m->name_length = (uptr)(q - m->name);
  if (!*q)
    return false;
  m->type = ++q;
  m->size = cf_layout_size(m->type, &q);
  if (*q == ';')
    q++;
  *p = q;
  return true;
}

// The member of the struct at p that holds offset; false for padding.
static bool cf_member_holding(const char *p, uptr offset, struct cf_member *m) {
  const char *type_name;
  uptr type_name_length;
  const char *members = cf_struct_members(p, &type_name, &type_name_length);
  while (cf_next_member(&members, m))
    if (offset >= m->offset && offset < m->offset + m->size)
      return true;
  return false;
}

// The element type of the array at p ('a'), and its element count.
static const char *cf_array_element(const char *p, uptr *count) {
  p++;
  *count = cf_parse_number(&p);
  return *p == '*' ? p + 1 : p;
}

// The size of the type at p; *end (if not null) is where it ends.
static uptr cf_layout_size(const char *p, const char **end) {
  uptr size = 0;
  switch (*p) {
  case 'b':
    p++;
    size = cf_parse_number(&p);
    break;
  case 'a': {
    uptr count;
    const char *element = cf_array_element(p, &count);
    size = count * cf_layout_size(element, &p);
    break;
  }
  case 's': {
    const char *q = p + 1;
    size = cf_parse_number(&q);
    const char *type_name;
    uptr type_name_length;
    p = cf_struct_members(p, &type_name, &type_name_length);
    struct cf_member m;
    while (cf_next_member(&p, &m)) {
    }
    if (*p == '}')
      p++;
    break;
  }
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
  const char *type_name;
  uptr type_name_length;
  return *cf_struct_members(p, &type_name, &type_name_length) == '}';
}

// A type named as one member: a scalar, an opaque struct, or an array of
// them.
static bool cf_layout_is_leaf(const char *p) {
  uptr count;
  while (*p == 'a')
    p = cf_array_element(p, &count);
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
    uptr count;
    const char *element = cf_array_element(p, &count);
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
  struct cf_member m;
  if (cf_member_holding(p, offset, &m)) {
    if (m.name_length && w->at + m.name_length + 2 < w->size) {
      w->name[w->at++] = '.';
      efsan_internal_memcpy(w->name + w->at, m.name, m.name_length);
      w->at += m.name_length;
      w->name[w->at] = 0;
    }
    cf_walk(m.type, base + m.offset, offset - m.offset, length, w);
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
static void cf_copy_name(char *out, uptr size, const char *name, uptr length) {
  if (length >= size)
    length = size - 1;
  if (name)
    efsan_internal_memcpy(out, name, length);
  out[name ? length : 0] = 0;
}

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
        uptr count;
        const char *inner = cf_array_element(p, &count);
        uptr size = cf_layout_size(inner, 0);
        if (!size)
          break;
        if (*inner == 's')
          element = inner;
        offset %= size;
        p = inner;
        continue;
      }
      struct cf_member m;
      if (!cf_member_holding(p, offset, &m))
        break;
      offset -= m.offset;
      p = m.type;
    }
  }
  if (!element)
    return false;
  *element_size = cf_layout_size(element, 0);
  const char *name;
  uptr name_length;
  const char *members = cf_struct_members(element, &name, &name_length);
  cf_copy_name(type_name, name_size, name, name_length);
  struct cf_member first;
  if (cf_next_member(&members, &first))
    cf_copy_name(first_member, member_size, first.name, first.name_length);
  else
    first_member[0] = 0;
  return *element_size != 0;
}
