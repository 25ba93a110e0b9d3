//===-- efsan_cfi_unwind.cpp - stepping out of code without frame pointers -===//
//
// The allocation stacks are unwound by frame pointers, and the C++ library
// is built without them: an allocation a std::string makes as it grows
// (operator new called from basic_string::_M_create, from _M_mutate, from
// _M_append) ended its stack in the library, and the report named the
// heap object "_M_mutate" instead of the program's line that grew the
// string. So the frames in the C++ library are stepped out of with the call
// frame information of its .eh_frame (each function's rule for its caller's
// stack pointer, return address and frame pointer at any instruction), and
// the program's own frames are unwound by their frame pointers again.
//
// Only what x86-64 code needs is read: the .eh_frame_hdr binary search
// table (DW_EH_PE_datarel | sdata4), CIEs and FDEs of 32-bit length, and
// the CFA rules DW_CFA_def_cfa* (registers rsp and rbp), offset rules for
// rbp and the return address, remember/restore state. Anything else ends
// the step (the stack then ends there, as before). Every stack read is
// inside the thread's stack. A rule, once found, is kept per return address.
//
//===----------------------------------------------------------------------===//
#include "efsan_glue.h"
#include "sanitizer_common/sanitizer_atomic.h"
#include "sanitizer_common/sanitizer_common.h"
#include "sanitizer_common/sanitizer_libc.h"

using namespace __sanitizer;

namespace __efsan {
namespace {

// DWARF register numbers of x86-64.
const u32 kRbp = 6, kRsp = 7, kReturnAddress = 16;

// The caller's frame as a rule: CFA = (rbp or rsp) + cfa_offset; the return
// address at CFA + ra_offset; rbp saved at CFA + rbp_offset, or unchanged.
struct Rule {
  bool cfa_is_rbp;
  bool rbp_saved;
  s32 cfa_offset;
  s32 rbp_offset;
  s32 ra_offset;
};

struct Reader {
  const u8 *p, *end;
  bool ok;
  u8 Byte() {
    if (p >= end) {
      ok = false;
      return 0;
    }
    return *p++;
  }
  u64 Uleb() {
    u64 v = 0;
    for (u32 shift = 0; ok && shift < 64; shift += 7) {
      u8 b = Byte();
      v |= (u64)(b & 0x7f) << shift;
      if (!(b & 0x80))
        return v;
    }
    ok = false;
    return 0;
  }
  s64 Sleb() {
    s64 v = 0;
    u32 shift = 0;
    u8 b;
    do {
      b = Byte();
      v |= (s64)(b & 0x7f) << shift;
      shift += 7;
    } while (ok && (b & 0x80) && shift < 64);
    if (shift < 64 && (b & 0x40))
      v |= -((s64)1 << shift);
    return v;
  }
  u32 U32() {
    if (end - p < 4) {
      ok = false;
      return 0;
    }
    u32 v;
    internal_memcpy(&v, p, 4);
    p += 4;
    return v;
  }
  // A pointer of the encodings x86-64 toolchains write (DW_EH_PE_pcrel or
  // absptr; udata4, sdata4, udata8); false for the others.
  bool Pointer(u8 encoding, uptr *value) {
    if (encoding == 0xff) // DW_EH_PE_omit
      return false;
    uptr base = (encoding & 0x70) == 0x10 ? (uptr)p : 0; // pcrel
    if ((encoding & 0x70) != 0 && (encoding & 0x70) != 0x10) {
      ok = false;
      return false;
    }
    switch (encoding & 0x0f) {
    case 0x03: // udata4
      *value = base + U32();
      return ok;
    case 0x0b: // sdata4
      *value = base + (uptr)(sptr)(s32)U32();
      return ok;
    case 0x00: // absptr
    case 0x04: { // udata8
      if (end - p < 8) {
        ok = false;
        return false;
      }
      u64 v;
      internal_memcpy(&v, p, 8);
      p += 8;
      *value = base + v;
      return true;
    }
    default:
      ok = false;
      return false;
    }
  }
};

// A register's rule "saved at CFA + offset": rbp's and the return
// address's are kept, others do not matter here.
void SetSaved(Rule *rule, u64 reg, s64 offset) {
  if (reg == kRbp) {
    rule->rbp_saved = true;
    rule->rbp_offset = (s32)offset;
  } else if (reg == kReturnAddress) {
    rule->ra_offset = (s32)offset;
  }
}

// The CFA computed from reg; false for a register other than rbp and rsp.
bool SetCfaRegister(Rule *rule, u64 reg) {
  if (reg != kRbp && reg != kRsp)
    return false;
  rule->cfa_is_rbp = reg == kRbp;
  return true;
}

// Runs a CFA program up to (not past) the instruction at target.
bool RunProgram(Reader r, uptr loc, uptr target, u64 code_align,
                s64 data_align, Rule *rule, const Rule &initial) {
  Rule saved[4];
  u32 depth = 0;
  while (r.ok && r.p < r.end) {
    u8 op = r.Byte();
    u8 high = op & 0xc0, low = op & 0x3f;
    uptr advance = 0;
    if (high == 0x40) { // DW_CFA_advance_loc
      advance = low * code_align;
    } else if (high == 0x80) { // DW_CFA_offset
      SetSaved(rule, low, (s64)r.Uleb() * data_align);
    } else if (high == 0xc0) { // DW_CFA_restore
      if (low == kRbp) {
        rule->rbp_saved = initial.rbp_saved;
        rule->rbp_offset = initial.rbp_offset;
      }
    } else {
      switch (op) {
      case 0x00: // nop
        break;
      case 0x02: // advance_loc1
        advance = r.Byte() * code_align;
        break;
      case 0x03: { // advance_loc2
        u32 lo = r.Byte();
        advance = (lo | (u32)r.Byte() << 8) * code_align;
        break;
      }
      case 0x04: // advance_loc4
        advance = r.U32() * code_align;
        break;
      case 0x05: { // offset_extended
        u64 reg = r.Uleb();
        SetSaved(rule, reg, (s64)r.Uleb() * data_align);
        break;
      }
      case 0x06: // restore_extended
      case 0x07: // undefined
      case 0x08: { // same_value
        u64 reg = r.Uleb();
        if (reg == kRbp)
          rule->rbp_saved = op == 0x06 ? initial.rbp_saved : false;
        break;
      }
      case 0x0a: // remember_state
        if (depth == 4)
          return false;
        saved[depth++] = *rule;
        break;
      case 0x0b: // restore_state
        if (!depth)
          return false;
        *rule = saved[--depth];
        break;
      case 0x0c: // def_cfa
        if (!SetCfaRegister(rule, r.Uleb()))
          return false;
        rule->cfa_offset = (s32)r.Uleb();
        break;
      case 0x0d: // def_cfa_register
        if (!SetCfaRegister(rule, r.Uleb()))
          return false;
        break;
      case 0x0e: // def_cfa_offset
        rule->cfa_offset = (s32)r.Uleb();
        break;
      case 0x11: { // offset_extended_sf
        u64 reg = r.Uleb();
        SetSaved(rule, reg, r.Sleb() * data_align);
        break;
      }
      case 0x12: // def_cfa_sf
        if (!SetCfaRegister(rule, r.Uleb()))
          return false;
        rule->cfa_offset = (s32)(r.Sleb() * data_align);
        break;
      case 0x13: // def_cfa_offset_sf
        rule->cfa_offset = (s32)(r.Sleb() * data_align);
        break;
      case 0x2e: // GNU_args_size
        r.Uleb();
        break;
      default: // expressions, registers kept in registers: not followed
        return false;
      }
    }
    if (advance) {
      if (loc + advance > target)
        return r.ok;
      loc += advance;
    }
  }
  return r.ok;
}

// The rule at pc (an instruction, not a return address) from the module's
// .eh_frame_hdr.
bool FindRule(uptr pc, uptr eh_frame_hdr, Rule *rule) {
  const u8 *hdr = (const u8 *)eh_frame_hdr;
  if (hdr[0] != 1 || hdr[3] != 0x3b) // version 1, datarel | sdata4 table
    return false;
  Reader r = {hdr + 4, hdr + 16, true};
  uptr eh_frame, count;
  if (!r.Pointer(hdr[1], &eh_frame) || !r.Pointer(hdr[2], &count) || !count)
    return false;
  const s32 *table = (const s32 *)r.p;
  uptr lo = 0, hi = count;
  while (hi - lo > 1) {
    uptr mid = (lo + hi) / 2;
    if ((uptr)(hdr + table[2 * mid]) <= pc)
      lo = mid;
    else
      hi = mid;
  }
  if ((uptr)(hdr + table[2 * lo]) > pc)
    return false;
  const u8 *fde = hdr + table[2 * lo + 1];
  u32 fde_length;
  internal_memcpy(&fde_length, fde, 4);
  if (fde_length == 0 || fde_length == 0xffffffffu)
    return false;
  const u8 *fde_end = fde + 4 + fde_length;
  u32 cie_offset;
  internal_memcpy(&cie_offset, fde + 4, 4);
  const u8 *cie = fde + 4 - cie_offset;
  u32 cie_length;
  internal_memcpy(&cie_length, cie, 4);
  if (cie_length == 0 || cie_length == 0xffffffffu)
    return false;
  Reader c = {cie + 8, cie + 4 + cie_length, true};
  u8 version = c.Byte();
  const char *augmentation = (const char *)c.p;
  while (c.ok && c.Byte())
    ;
  u64 code_align = c.Uleb();
  s64 data_align = c.Sleb();
  if (version == 1)
    c.Byte();
  else
    c.Uleb();
  u8 fde_encoding = 0;
  if (augmentation[0] == 'z') {
    u64 length = c.Uleb();
    const u8 *after = c.p + length;
    for (const char *a = augmentation + 1; *a && c.ok; a++) {
      if (*a == 'R') {
        fde_encoding = c.Byte();
      } else if (*a == 'L') {
        c.Byte();
      } else if (*a == 'P') {
        uptr ignored;
        c.Pointer(c.Byte() & 0x7f, &ignored);
      } else if (*a != 'S') {
        return false;
      }
    }
    c.p = after;
  } else if (augmentation[0]) {
    return false;
  }
  if (!c.ok)
    return false;
  Reader f = {fde + 8, fde_end, true};
  uptr begin, range;
  if (!f.Pointer(fde_encoding, &begin) ||
      !f.Pointer(fde_encoding & 0x0f, &range) || pc < begin ||
      pc >= begin + range)
    return false;
  if (augmentation[0] == 'z')
    f.p += f.Uleb();
  // The CIE's instructions give every function's first state (CFA rsp+8,
  // the return address at CFA-8), the FDE's the rest.
  Rule initial = {false, false, 8, 0, -8};
  if (!RunProgram(c, begin, begin, code_align, data_align, &initial, initial))
    return false;
  *rule = initial;
  return RunProgram(f, begin, pc, code_align, data_align, rule, initial);
}

// Rules found, by return address: a direct-mapped table the threads share,
// each entry two words written value first, address last.
const uptr kCachedRules = 4096;
struct CachedRule {
  atomic_uint64_t pc;
  atomic_uint64_t packed;
};
CachedRule cached_rules[kCachedRules];

u64 Pack(const Rule &rule) {
  return (u64)(u32)rule.cfa_offset | (u64)(u16)(s16)rule.rbp_offset << 32 |
         (u64)(u8)(s8)rule.ra_offset << 48 | (u64)rule.cfa_is_rbp << 56 |
         (u64)rule.rbp_saved << 57 | 1ull << 63;
}

Rule Unpack(u64 packed) {
  Rule rule;
  rule.cfa_offset = (s32)(u32)packed;
  rule.rbp_offset = (s16)(u16)(packed >> 32);
  rule.ra_offset = (s8)(u8)(packed >> 48);
  rule.cfa_is_rbp = (packed >> 56) & 1;
  rule.rbp_saved = (packed >> 57) & 1;
  return rule;
}

bool RuleAt(uptr return_address, uptr eh_frame_hdr, Rule *rule) {
  CachedRule &slot =
      cached_rules[(return_address * 0x9e3779b97f4a7c15ull) >> 52];
  if (atomic_load(&slot.pc, memory_order_acquire) == return_address) {
    u64 packed = atomic_load(&slot.packed, memory_order_relaxed);
    if (atomic_load(&slot.pc, memory_order_acquire) == return_address &&
        packed)
    {
      *rule = Unpack(packed);
      return true;
    }
  }
  if (!FindRule(return_address - 1, eh_frame_hdr, rule))
    return false;
  // Offsets that do not fit the packing are not kept (none seen in x86-64
  // code: a frame of more than 2 GiB, an rbp saved 32 KiB away).
  if (rule->rbp_offset != (s16)rule->rbp_offset ||
      rule->ra_offset != (s8)rule->ra_offset)
    return true;
  atomic_store(&slot.pc, 0, memory_order_relaxed);
  atomic_store(&slot.packed, Pack(*rule), memory_order_release);
  atomic_store(&slot.pc, return_address, memory_order_release);
  return true;
}

bool InStack(uptr addr, uptr bottom, uptr top) {
  return addr >= bottom && addr + sizeof(uptr) <= top && !(addr & 7);
}

} // namespace

bool CfiStep(uptr *pc, uptr *sp, uptr *bp, uptr eh_frame_hdr,
             uptr stack_bottom, uptr stack_top) {
  Rule rule;
  if (!eh_frame_hdr || !RuleAt(*pc, eh_frame_hdr, &rule))
    return false;
  uptr cfa = (rule.cfa_is_rbp ? *bp : *sp) + (sptr)rule.cfa_offset;
  uptr ra_at = cfa + (sptr)rule.ra_offset;
  if (!InStack(ra_at, stack_bottom, stack_top) || cfa <= *sp)
    return false;
  uptr next_bp = *bp;
  if (rule.rbp_saved) {
    uptr bp_at = cfa + (sptr)rule.rbp_offset;
    if (!InStack(bp_at, stack_bottom, stack_top))
      return false;
    next_bp = *(uptr *)bp_at;
  }
  *pc = *(uptr *)ra_at;
  *sp = cfa;
  *bp = next_bp;
  return *pc != 0;
}

} // namespace __efsan
