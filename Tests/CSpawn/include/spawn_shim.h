// The GNU extensions of posix_spawn and pipe2 the tests' ChildProcess uses, which Swift's Glibc
// module does not show (they need _GNU_SOURCE).
#ifndef LOGBOOK_SPAWN_SHIM_H
#define LOGBOOK_SPAWN_SHIM_H
#include <spawn.h>

/// pipe2(fds, O_CLOEXEC).
int logbook_pipe_cloexec(int fds[2]);
/// posix_spawn_file_actions_addclosefrom_np: the child closes every descriptor from `from` on.
int logbook_spawn_closefrom(posix_spawn_file_actions_t *actions, int from);
/// posix_spawn_file_actions_addchdir_np: the child starts in `directory`.
int logbook_spawn_chdir(posix_spawn_file_actions_t *actions, const char *directory);
#endif
