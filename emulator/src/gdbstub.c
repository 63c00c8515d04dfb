/* gdbstub.c - placeholder, replaced by the real stub */
#include <stdlib.h>
#include "gdbstub.h"
#include "internal.h"
gdbstub *gdb_listen(const char *spec, char *err, size_t errlen) { (void)spec; errf(err, errlen, "gdb stub not implemented yet"); return NULL; }
int gdb_accept(gdbstub *g, int t) { (void)g; (void)t; return -1; }
int gdb_poll_fd(gdbstub *g) { (void)g; return -1; }
bool gdb_check_interrupt(gdbstub *g) { (void)g; return false; }
temu_stop gdb_session(gdbstub *g, temu *e, uint64_t limit, bool a) { (void)g; (void)a; return temu_run(e, limit); }
bool gdb_killed(const gdbstub *g) { (void)g; return false; }
void gdb_close(gdbstub *g) { (void)g; }
