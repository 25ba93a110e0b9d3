#!/usr/bin/env python3
"""set_symbolizer_path.py PATH RUNTIME...

Writes PATH into the symbolizer slot of each efsan runtime RUNTIME (an
archive or a shared library), in place. The slot is a marker followed by
the path and NULs, SLOT_SIZE bytes in all (compiler-rt/lib/efsan/
efsan_flags.cpp, BuiltSymbolizer); the build fills it with the build tree's
symbolizer, and `cmake --install` runs this on the installed runtime with
the installed symbolizer's path. Errors are one line on stderr, status 1.
"""
import os
import sys

MARKER = b"efsan-symbolizer-path:"
SLOT_SIZE = 4096


def set_path(runtime, path):
    with open(runtime, "rb") as f:
        data = f.read()
    if data.count(MARKER) != 1:
        raise ValueError("%s: %d symbolizer slots, not 1" % (runtime, data.count(MARKER)))
    start = data.index(MARKER) + len(MARKER)
    room = SLOT_SIZE - len(MARKER)
    if len(path) >= room:
        raise ValueError("%s: the path is longer than the slot's %d bytes" % (path.decode(), room - 1))
    data = data[:start] + path + b"\0" * (room - len(path)) + data[start + room:]
    tmp = runtime + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.chmod(tmp, os.stat(runtime).st_mode & 0o7777)
    os.replace(tmp, runtime)


def main():
    if len(sys.argv) < 3 or not os.path.isabs(sys.argv[1]):
        sys.stderr.write("usage: set_symbolizer_path.py ABSOLUTE_PATH RUNTIME...\n")
        return 1
    path = os.fsencode(sys.argv[1])
    try:
        for runtime in sys.argv[2:]:
            set_path(runtime, path)
    except (OSError, ValueError) as e:
        sys.stderr.write("set_symbolizer_path.py: error: %s\n" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
