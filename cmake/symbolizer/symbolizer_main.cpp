// The entry point that LLVM's build generates for a tool declared with
// GENERATE_DRIVER (llvm-symbolizer.cpp defines llvm_symbolizer_main).
#include "llvm/Support/LLVMDriver.h"

int llvm_symbolizer_main(int argc, char **argv, const llvm::ToolContext &);

int main(int argc, char **argv) {
  return llvm_symbolizer_main(argc, argv, {argv[0], nullptr, false});
}
