"""ctypes_host.py LIBRARY FUNCTION [ARG]: an uninstrumented Python program
that loads LIBRARY with ctypes, calls FUNCTION (with the integer ARG) and
prints what it returns."""
import ctypes
import sys

library = ctypes.CDLL(sys.argv[1])
function = getattr(library, sys.argv[2])
function.restype = ctypes.c_long
print("%s returned %d" % (sys.argv[2], function(*[int(a) for a in sys.argv[3:]])))
