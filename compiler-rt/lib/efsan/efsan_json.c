//===-- efsan_json.c - what both tools' JSON reports share ----------------===//
//
// String escaping and the top-level keys every JSON report starts with
// (docs/JSONSchema.md). Kept in one place so that the two tools cannot drift
// apart in how they name the process or quote a string.
//
//===----------------------------------------------------------------------===//
#include "efsan_internal.h"

void efsan_json_string(const char *s) {
  // Printed in chunks: a string (a path, a suggestion) may be longer than
  // any buffer on the stack, and each efsan_printf is one write.
  char buffer[256];
  uptr at = 0;
  buffer[at++] = '"';
  for (; s && *s; s++) {
    if (at > sizeof(buffer) - 8) {
      buffer[at] = 0;
      efsan_printf("%s", buffer);
      at = 0;
    }
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      buffer[at++] = '\\';
      buffer[at++] = (char)c;
    } else if (c < 0x20) {
      at += efsan_snprintf(buffer + at, sizeof(buffer) - at, "\\u%04x", c);
    } else {
      buffer[at++] = (char)c;
    }
  }
  buffer[at++] = '"';
  buffer[at] = 0;
  efsan_printf("%s", buffer);
}

void efsan_json_print_identity(const char *tool, const char *separator) {
  // "tool" stays the first key (readers that only sniff the tool keep
  // working); the schema version follows at once, before anything whose
  // meaning it governs.
  efsan_printf("\"tool\": \"%s\"%s\"schema_version\": %d%s\"pid\": %d%s"
               "\"executable\": ",
               tool, separator, EFSAN_JSON_SCHEMA_VERSION, separator,
               efsan_getpid(), separator);
  efsan_json_string(efsan_executable_path());
  // A program that started no instrumented process reports as it did
  // before trees: without the key.
  struct efsan_process_tree tree;
  if (!efsan_process_tree(&tree) || (tree.root && !tree.descendant_reports))
    return;
  efsan_printf("%s\"process_tree\": {\"root_pid\": %d, \"parent_pid\": %d, "
               "\"name\": ",
               separator, tree.root_pid, tree.parent_pid);
  efsan_json_string(tree.name);
  efsan_printf(", \"forked\": %s, \"directory\": ",
               tree.forked ? "true" : "false");
  efsan_json_string(tree.directory);
  if (tree.root)
    efsan_printf(", \"descendant_reports\": %u}", tree.descendant_reports);
  else
    efsan_printf(", \"descendant_reports\": null}");
}

void efsan_json_stack(u32 stack_id) {
  struct efsan_frame frames[EFSAN_JSON_STACK_FRAMES];
  uptr n = stack_id ? efsan_symbolize_stack(stack_id, frames,
                                            EFSAN_JSON_STACK_FRAMES)
                    : 0;
  efsan_printf("[");
  for (uptr i = 0; i < n; i++) {
    efsan_printf("%s{\"function\": ", i ? ", " : "");
    efsan_json_string(frames[i].function);
    efsan_printf(", \"file\": ");
    if (frames[i].file)
      efsan_json_string(frames[i].file);
    else
      efsan_printf("null");
    efsan_printf(", \"line\": %d", frames[i].line);
    if (frames[i].allocation_wrapper)
      efsan_printf(", \"allocation_wrapper\": true");
    efsan_printf("}");
  }
  efsan_printf("]");
}
