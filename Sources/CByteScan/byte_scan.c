// The scanner is inline, in the header, so that Swift call sites fold their constant sets into it; this file is
// the target's one translation unit.
#include "tributary_byte_scan.h"
