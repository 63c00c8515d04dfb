// SPDX-License-Identifier: GPL-2.0
/*
 * dev_blockdev.c - TSAR vci_block_device_tsar (reference 4.3): a DMA disk,
 * with the disk options (-disk, -disk-ro, -disk-error).
 *
 * Writing OP = READ/WRITE starts a transfer: STATUS reads BUSY until the
 * completion cycle (a short simulated delay), then the data moves between
 * the backing image and guest RAM, STATUS becomes *_SUCCESS / *_ERROR and
 * the IRQ line rises if IRQ_ENABLE != 0.  Reading STATUS in a terminal state
 * returns it, acknowledges the IRQ and goes back to IDLE.
 *
 * A backing file is written through: a write completes only once its data
 * reached the file and fdatasync() returned, so what the guest saw
 * completed survives the emulator being killed (or the host crashing).
 * The disk can be read-only (writes end in WRITE_ERROR) and block ranges
 * can be declared bad (fault injection: transfers touching them fail).
 * A read-only disk gets a `read-only` property in the guest's DTB.
 */
#include <errno.h>
#include <fcntl.h>
#include <libfdt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

typedef struct blockdev {
    struct machine *m;
    int fd;              /* backing file, or -1 */
    uint8_t *mem;        /* in-memory image (when no fd) */
    uint64_t nblocks;
    bool readonly;
    uint32_t buffer, buffer_ext, lba, count, irq_enable, status;
    int op;
    uint64_t done_at;    /* completion cycle when busy */
} blockdev_t;

#define BLK_SIZE 512u
#define BLK_DELAY 2000u          /* cycles from OP write to completion */
#define BLK_PER_BLOCK 64u        /* plus this per block transferred */
#define BLK_MAX_COUNT (1u << 20) /* sanity cap: 512 MiB per request */

/* Registers BDEV_*, operations BDEV_OP_*, status values BDEV_STATUS_*: hwdesc.h
 * (the tsar layer's _registers.yaml). */

static bool terminal(uint32_t st) { return st >= BDEV_STATUS_READ_SUCCESS && st <= BDEV_STATUS_WRITE_ERROR; }

static uint32_t blockdev_irq_lines(void *dev)
{
    blockdev_t *b = dev;
    return b->irq_enable && terminal(b->status);
}

static uint64_t blockdev_next_event(void *dev)
{
    blockdev_t *b = dev;
    return b->status == BDEV_STATUS_BUSY ? b->done_at : UINT64_MAX;
}

static bool do_io(blockdev_t *b, bool write, uint64_t off, uint8_t *buf, size_t len)
{
    if (b->fd < 0) {
        if (write)
            memcpy(b->mem + off, buf, len);
        else
            memcpy(buf, b->mem + off, len);
        return true;
    }
    size_t done = 0;
    while (done < len) {
        ssize_t n = write ? pwrite(b->fd, buf + done, len - done, (off_t)(off + done))
                          : pread(b->fd, buf + done, len - done, (off_t)(off + done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += (size_t)n;
    }
    if (write && fdatasync(b->fd) < 0 && errno != EINVAL)
        return false; /* EINVAL: a file that cannot be synced (nothing to flush) */
    return true;
}

static bool bad_blocks(const blockdev_t *b)
{
    const temu_config *cfg = &b->m->cfg;
    uint64_t first = b->lba, last = (uint64_t)b->lba + (b->count ? b->count - 1 : 0);
    for (int i = 0; i < cfg->ndisk_errors; i++)
        if (first <= cfg->disk_errors[i].last && cfg->disk_errors[i].first <= last)
            return true;
    return false;
}

static void complete(blockdev_t *b)
{
    machine *m = b->m;
    bool rd = b->op == BDEV_OP_READ;
    uint64_t pa = ((uint64_t)(b->buffer_ext & 0xFF) << 32) | b->buffer;
    size_t len = (size_t)b->count * BLK_SIZE;
    bool ok = (uint64_t)b->lba + b->count <= b->nblocks && b->count <= BLK_MAX_COUNT &&
              (rd || !b->readonly) && !bad_blocks(b);
    uint8_t *tmp = NULL;
    if (ok && len) {
        tmp = malloc(len);
        ok = tmp != NULL;
    }
    if (ok && len) {
        if (rd)
            ok = do_io(b, false, (uint64_t)b->lba * BLK_SIZE, tmp, len) &&
                 bus_dma_write(m, pa, tmp, len) == 0;
        else
            ok = bus_dma_read(m, pa, tmp, len) == 0 &&
                 do_io(b, true, (uint64_t)b->lba * BLK_SIZE, tmp, len);
    }
    free(tmp);
    b->status = rd ? (ok ? BDEV_STATUS_READ_SUCCESS : BDEV_STATUS_READ_ERROR)
                   : (ok ? BDEV_STATUS_WRITE_SUCCESS : BDEV_STATUS_WRITE_ERROR);
    if (TRACE_ON(m, TEMU_TRACE_DEV))
        trace_printf(m, "dev: blockdev %s lba=%u count=%u pa=0x%010llx -> %s\n",
                     rd ? "read" : "write", b->lba, b->count, (unsigned long long)pa,
                     ok ? "ok" : "ERROR");
}

static void blockdev_update(void *dev)
{
    blockdev_t *b = dev;
    if (b->status == BDEV_STATUS_BUSY && machine_now(b->m) >= b->done_at)
        complete(b);
}

static int blk_read(void *dev, uint32_t off, uint32_t *val)
{
    blockdev_t *b = dev;
    blockdev_update(b);
    switch (off) {
    case BDEV_BUFFER: *val = b->buffer; return 0;
    case BDEV_LBA: *val = b->lba; return 0;
    case BDEV_COUNT: *val = b->count; return 0;
    case BDEV_STATUS:
        *val = b->status;
        if (terminal(b->status))
            b->status = BDEV_STATUS_IDLE; /* read acknowledges */
        return 0;
    case BDEV_IRQ_ENABLE: *val = b->irq_enable; return 0;
    case BDEV_SIZE: *val = (uint32_t)b->nblocks; return 0;
    case BDEV_BLOCK_SIZE: *val = BLK_SIZE; return 0;
    case BDEV_BUFFER_EXT: *val = b->buffer_ext; return 0;
    default: return -1; /* OP is write-only */
    }
}

static int blk_write(void *dev, uint32_t off, uint32_t val, uint32_t be)
{
    blockdev_t *b = dev;
    (void)be;
    blockdev_update(b);
    bool busy = b->status == BDEV_STATUS_BUSY;
    switch (off) {
    case BDEV_BUFFER: if (busy) return -1; b->buffer = val; return 0;
    case BDEV_LBA: if (busy) return -1; b->lba = val; return 0;
    case BDEV_COUNT: if (busy) return -1; b->count = val; return 0;
    case BDEV_OP:
        if (busy)
            return -1;
        if (val == BDEV_OP_READ || val == BDEV_OP_WRITE) {
            b->op = (int)val;
            b->status = BDEV_STATUS_BUSY;
            b->done_at = machine_now(b->m) + BLK_DELAY +
                         (uint64_t)BLK_PER_BLOCK * (b->count < BLK_MAX_COUNT ? b->count : 0);
        } else {
            b->status = BDEV_STATUS_IDLE; /* NOOP: soft reset */
        }
        return 0;
    case BDEV_IRQ_ENABLE: b->irq_enable = val; return 0;
    case BDEV_BUFFER_EXT: b->buffer_ext = val; return 0;
    default: return -1;
    }
}

static void blockdev_free(void *dev);

static void *blockdev_create(machine *m, const dev_desc *d, const void *fdt, char *err,
                             size_t errlen)
{
    (void)d;
    (void)fdt;
    blockdev_t *b = calloc(1, sizeof *b);
    if (!b) {
        errf(err, errlen, "out of memory");
        return NULL;
    }
    b->m = m;
    b->fd = -1;
    b->irq_enable = 1;
    const temu_config *cfg = &m->cfg;
    b->readonly = cfg->disk_readonly != 0;
    if (cfg->disk_path) {
        const char *p = cfg->disk_path;
        /* O_NONBLOCK: a FIFO must not block */
        b->fd = open(p, (b->readonly ? O_RDONLY : O_RDWR) | O_CLOEXEC | O_NONBLOCK);
        if (b->fd < 0 && !b->readonly && (errno == EACCES || errno == EROFS)) {
            b->fd = open(p, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
            b->readonly = b->fd >= 0;
        }
        if (b->fd < 0) {
            errf(err, errlen, "%s: cannot open disk image: %s", p, strerror(errno));
            free(b);
            return NULL;
        }
        struct stat st;
        if (fstat(b->fd, &st) < 0 || !S_ISREG(st.st_mode)) {
            errf(err, errlen, "%s: disk image is not a regular file", p);
            close(b->fd);
            free(b);
            return NULL;
        }
        if (st.st_size == 0 || st.st_size % BLK_SIZE) {
            errf(err, errlen,
                 "%s: disk image size %lld is not a positive multiple of %u bytes "
                 "(truncated?)",
                 p, (long long)st.st_size, BLK_SIZE);
            close(b->fd);
            free(b);
            return NULL;
        }
        /* make sure it is readable at all */
        uint8_t probe[BLK_SIZE];
        if (pread(b->fd, probe, BLK_SIZE, 0) != (ssize_t)BLK_SIZE) {
            errf(err, errlen, "%s: cannot read disk image: %s", p,
                 errno ? strerror(errno) : "short read");
            close(b->fd);
            free(b);
            return NULL;
        }
        b->nblocks = (uint64_t)st.st_size / BLK_SIZE;
    } else if (cfg->disk_data) {
        if (cfg->disk_size == 0 || cfg->disk_size % BLK_SIZE) {
            errf(err, errlen, "in-memory disk image size %zu is not a positive multiple of %u",
                 cfg->disk_size, BLK_SIZE);
            free(b);
            return NULL;
        }
        b->mem = malloc(cfg->disk_size);
        if (!b->mem) {
            errf(err, errlen, "out of memory (disk image)");
            free(b);
            return NULL;
        }
        memcpy(b->mem, cfg->disk_data, cfg->disk_size);
        b->nblocks = cfg->disk_size / BLK_SIZE;
    }
    if (b->nblocks > 0xFFFFFFFFull) {
        /* SIZE and LBA are 32-bit block numbers */
        errf(err, errlen,
             "%s: disk image of %llu bytes is larger than the block device can address "
             "(at most %llu blocks of %u bytes)",
             cfg->disk_path ? cfg->disk_path : "in-memory disk",
             (unsigned long long)(b->nblocks * BLK_SIZE), 0xFFFFFFFFull, BLK_SIZE);
        blockdev_free(b);
        return NULL;
    }
    return b;
}

static void blockdev_free(void *dev)
{
    blockdev_t *b = dev;
    if (b->fd >= 0)
        close(b->fd);
    free(b->mem);
    free(b);
}

/* -disk-ro: Linux makes the disk read-only */
static int blockdev_fixup_dtb(void *dev, void *fdt)
{
    static const char *const ro_compat[] = {"tsar,vci_block_device",
                                            "tsar,vci_block_device_tsar_v5"};
    blockdev_t *b = dev;
    int rc = 0;
    for (size_t i = 0; !rc && b->readonly && i < sizeof ro_compat / sizeof *ro_compat; i++)
        for (int off = fdt_node_offset_by_compatible(fdt, -1, ro_compat[i]);
             !rc && off >= 0; off = fdt_node_offset_by_compatible(fdt, off, ro_compat[i]))
            rc = fdt_setprop_empty(fdt, off, "read-only");
    return rc;
}

static int blockdev_missing(machine *m, const char *dtname, char *err, size_t errlen)
{
    const temu_config *cfg = &m->cfg;
    if (!cfg->disk_path && !cfg->disk_data)
        return 0;
    errf(err, errlen, "%s: a disk image was given but %s has no block device",
         cfg->disk_path ? cfg->disk_path : "disk", dtname);
    return -1;
}

static uint64_t blockdev_service(void *dev)
{
    blockdev_update(dev);
    return blockdev_next_event(dev);
}

static const char *const blockdev_compatible[] = {
    BDEV_COMPATIBLE, "tsar,vci_block_device_tsar_v5", "soclib,vci_block_device", NULL};

const temu_device_type blockdev_device = {
    .name = "blockdev",
    .compatible = blockdev_compatible,
    .create = blockdev_create,
    .free = blockdev_free,
    .read = blk_read,
    .write = blk_write,
    .service = blockdev_service,
    .irq_lines = blockdev_irq_lines,
    .fixup_dtb = blockdev_fixup_dtb,
    .missing = blockdev_missing,
};
