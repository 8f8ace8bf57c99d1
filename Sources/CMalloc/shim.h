// glibc's allocator tuning (mallopt and its M_* parameters), which the Glibc module does not
// export. Two ints in, an int out: no pointers cross this boundary.
#include <malloc.h>
