//===-- efsan_ubsan.cpp - UBSan as a plugin of the efsan runtime ----------===//
//
// -fsanitize=undefined,efficiency-* programs get UBSan's handlers from the
// efsan runtime (RTUbsan is linked into it, as into tsan's and msan's), since
// clang's standalone UBSan runtime would bring a second sanitizer_common.
// The efsan runtime initialises them here, once its own flags are parsed.
//
//===----------------------------------------------------------------------===//

#include "efsan_glue.h"
#include "sanitizer_common/sanitizer_flag_parser.h"
#include "sanitizer_common/sanitizer_flags.h"
#include "ubsan/ubsan_flags.h"
#include "ubsan/ubsan_init.h"

using namespace __sanitizer;

// Called by the runtime's initialiser after ESAN_OPTIONS have set the common
// flags. UBSAN_OPTIONS set UBSan's own flags (halt_on_error,
// print_stacktrace, suppressions...); common flags in it are accepted but
// ESAN_OPTIONS keeps the last word on them, as the tool the program was built
// for.
extern "C" void efsan_init_ubsan(void) {
  __ubsan::Flags *ubsan_flags = __ubsan::flags();
  ubsan_flags->SetDefaults();

  CommonFlags ignored_common_flags;
  ignored_common_flags.CopyFrom(*common_flags());

  FlagParser parser;
  __ubsan::RegisterUbsanFlags(&parser, ubsan_flags);
  RegisterCommonFlags(&parser, &ignored_common_flags);
  parser.ParseString(__ubsan_default_options());
  // Not in a setuid/setgid program (suppressions= would read any file).
  // Read here, not by ParseStringFromEnv, which at verbosity=1 printed
  // "UBSAN_OPTIONS: <empty>" into every efsan run's output.
  const char *options =
      __efsan::secure_execution ? nullptr : GetEnv("UBSAN_OPTIONS");
  if (options)
    parser.ParseString(options, "UBSAN_OPTIONS");

  __ubsan::InitAsPlugin();
}
