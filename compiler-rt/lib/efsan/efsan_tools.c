//===-- efsan_tools.c - the tools this runtime has --------------*- C -*-===//
//
// The one place that names the tools: above both of them and the core, which
// finds a tool's table of hooks (efsan_tool.h) here by the id the pass gives.
//
//===----------------------------------------------------------------------===//
#include "efsan_cache_frag.h"
#include "efsan_working_set.h"

const struct efsan_tool_hooks *const efsan_all_tools[] = {
    &efsan_cache_frag_tool,
    &efsan_working_set_tool,
};
const uptr efsan_tool_count =
    sizeof(efsan_all_tools) / sizeof(efsan_all_tools[0]);

const struct efsan_tool_hooks *efsan_find_tool(int id) {
  for (uptr i = 0; i < efsan_tool_count; i++)
    if (efsan_all_tools[i]->id == id)
      return efsan_all_tools[i];
  return 0;
}
