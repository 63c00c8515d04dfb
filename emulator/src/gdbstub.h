/*
 * gdbstub.h - GDB remote serial protocol stub for tsar-emu (CLI side).
 */
#ifndef TSAR_GDBSTUB_H
#define TSAR_GDBSTUB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emu.h"

typedef struct gdbstub gdbstub;

/* Listen on "tcp::PORT", "tcp:HOST:PORT" or "PORT".  NULL + message on error. */
gdbstub *gdb_listen(const char *spec, char *err, size_t errlen);
/* Accept a connection (timeout_ms < 0: wait forever).  0, or -1 on timeout,
 * error or signal. */
int gdb_accept(gdbstub *g, int timeout_ms);
/* File descriptor to watch while the guest runs (-1 if none). */
int gdb_poll_fd(gdbstub *g);
/* The fd is readable while the guest runs: true if the run must stop
 * (Ctrl-C from gdb, or a new connection wants to take control). */
bool gdb_check_interrupt(gdbstub *g);
/* Run the guest under debugger control until it ends or gdb kills it. */
temu_stop gdb_session(gdbstub *g, temu *e, uint64_t limit, bool attached);
bool gdb_killed(const gdbstub *g);
void gdb_close(gdbstub *g);

#endif
