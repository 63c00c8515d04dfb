/* TSAR's ABI has no stat-family system calls (y2038-safe asm-generic
 * set): fstatat uses statx and fills struct stat itself, so there is no
 * kernel stat structure. */
