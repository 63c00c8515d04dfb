/*
 * test.h - helpers for the bare-metal test programs.
 *
 * A test's main() returns 0 on success; CHECK(n, cond) ends the run with
 * exit status n (and a message on the TTY) when cond is false, so the exit
 * status names the failing check.  Unexpected exceptions end the run with
 * 200 + ExcCode.
 */
#ifndef TEST_H
#define TEST_H

#include <stdint.h>
/* the runtime (emulator/runtime: console, exit, exceptions, CP0/CP2 access)
 * and, through it, hwdesc.h: the platform, generated from the spec */
#include "runtime.h"

typedef uint32_t u32;

#define CHECK(n, cond)                                                        \
    do {                                                                      \
        if (!(cond))                                                          \
            fail(n, #cond, 0, 0);                                             \
    } while (0)
#define CHECK_EQ(n, got, exp)                                                 \
    do {                                                                      \
        uint32_t g_ = (uint32_t)(got), e_ = (uint32_t)(exp);                  \
        if (g_ != e_)                                                         \
            fail(n, #got " == " #exp, g_, e_);                                \
    } while (0)

/* Expect exactly one exception while running `stmt`, with ExcCode `code`. */
#define EXPECT_EXC(n, code, stmt)                                             \
    do {                                                                      \
        int c0_ = exc_count;                                                  \
        exc_expect = 1;                                                       \
        stmt;                                                                 \
        exc_expect = 0;                                                       \
        CHECK_EQ(n, exc_count - c0_, 1);                                      \
        CHECK_EQ(n, EXCCODE(exc_cause), code);                                \
    } while (0)

static inline uint32_t count_now(void) { return MFC0(9, 0); }

#endif
