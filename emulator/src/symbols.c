// SPDX-License-Identifier: GPL-2.0
/*
 * symbols.c - what the loaded ELF says about addresses, for reports: the
 * code symbol an address falls in ("pc=0x... <name+0x1c>" when a run stops)
 * and the bytes behind a link-time address (a porting stub's message,
 * whose address the stub leaves in $v0 while the MMU may still be off).
 *
 * Symbols are optional: an ELF without a .symtab, or one whose table does
 * not parse, simply has none; the image itself was validated by elf_load.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct sym {
    uint32_t addr, size, name; /* name: offset in the string copy */
};

struct symtab {
    struct sym *v;
    size_t n;
    char *str;
    size_t str_len;
};

static int by_addr(const void *a, const void *b)
{
    const struct sym *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    return x->size < y->size ? -1 : x->size > y->size;
}

/* The section header `i`, or NULL when it lies outside the file. */
static const uint8_t *section(const uint8_t *b, size_t len, unsigned i)
{
    uint32_t shoff = rd32(b + offsetof(Elf32_Ehdr, e_shoff));
    uint16_t shentsize = rd16(b + offsetof(Elf32_Ehdr, e_shentsize));
    uint16_t shnum = rd16(b + offsetof(Elf32_Ehdr, e_shnum));
    if (!shoff || shentsize != sizeof(Elf32_Shdr) || i >= shnum || shoff > len ||
        (uint64_t)(i + 1) * shentsize > len - shoff)
        return NULL;
    return b + shoff + (size_t)i * shentsize;
}

void symbols_load(machine *m, const void *buf, size_t len)
{
    const uint8_t *b = buf;
    symbols_free(m);
    if (len < sizeof(Elf32_Ehdr))
        return;
    uint16_t shnum = rd16(b + offsetof(Elf32_Ehdr, e_shnum));
    const uint8_t *symsh = NULL;
    for (unsigned i = 0; i < shnum && !symsh; i++) {
        const uint8_t *sh = section(b, len, i);
        if (sh && rd32(sh + offsetof(Elf32_Shdr, sh_type)) == SHT_SYMTAB)
            symsh = sh;
    }
    if (!symsh)
        return;
    const uint8_t *strsh = section(b, len, rd32(symsh + offsetof(Elf32_Shdr, sh_link)));
    if (!strsh)
        return;
    uint32_t soff = rd32(symsh + offsetof(Elf32_Shdr, sh_offset));
    uint32_t ssize = rd32(symsh + offsetof(Elf32_Shdr, sh_size));
    uint32_t toff = rd32(strsh + offsetof(Elf32_Shdr, sh_offset));
    uint32_t tsize = rd32(strsh + offsetof(Elf32_Shdr, sh_size));
    if (soff > len || ssize > len - soff || toff > len || tsize > len - toff || !tsize)
        return;
    size_t count = ssize / sizeof(Elf32_Sym);
    struct symtab *t = calloc(1, sizeof *t);
    if (!t)
        return;
    t->v = malloc((count ? count : 1) * sizeof *t->v);
    t->str = malloc(tsize + 1);
    if (!t->v || !t->str) {
        free(t->v);
        free(t->str);
        free(t);
        return;
    }
    memcpy(t->str, b + toff, tsize);
    t->str[tsize] = 0; /* a table without a final NUL stays bounded */
    t->str_len = tsize;
    for (size_t i = 0; i < count; i++) {
        const uint8_t *s = b + soff + i * sizeof(Elf32_Sym);
        uint32_t name = rd32(s + offsetof(Elf32_Sym, st_name));
        uint32_t size = rd32(s + offsetof(Elf32_Sym, st_size));
        unsigned type = ELF32_ST_TYPE(s[offsetof(Elf32_Sym, st_info)]);
        uint16_t shndx = rd16(s + offsetof(Elf32_Sym, st_shndx));
        /* code: functions, and the untyped symbols of assembly (sized) */
        if (!size || name >= tsize || !t->str[name] || shndx == SHN_UNDEF ||
            shndx >= SHN_LORESERVE || (type != STT_FUNC && type != STT_NOTYPE))
            continue;
        t->v[t->n++] = (struct sym){ rd32(s + offsetof(Elf32_Sym, st_value)), size, name };
    }
    qsort(t->v, t->n, sizeof *t->v, by_addr);
    m->syms = t;
}

void symbols_free(machine *m)
{
    if (!m->syms)
        return;
    free(m->syms->v);
    free(m->syms->str);
    free(m->syms);
    m->syms = NULL;
}

const char *temu_symbol(const temu *e, uint32_t addr, uint32_t *offset)
{
    const struct symtab *t = e->m.syms;
    if (!t || !t->n)
        return NULL;
    /* the last symbol starting at or below addr ... */
    size_t lo = 0, hi = t->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->v[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    /* ... or, when addr is past its end, an enclosing one just below it */
    for (size_t k = lo, tries = 0; k-- > 0 && tries < 64; tries++) {
        const struct sym *s = &t->v[k];
        if (addr - s->addr < s->size) {
            if (offset)
                *offset = addr - s->addr;
            return t->str + s->name;
        }
    }
    return NULL;
}

uint32_t symbols_link_address(machine *m, cpu_t *c, uint32_t pc)
{
    uint64_t pa;
    if (mmu_translate(c, pc, ACC_FETCH, c->mode, &pa, false))
        return pc;
    for (int i = 0; i < m->nloaded; i++)
        if (pa >= m->loaded[i].lo && pa < m->loaded[i].hi)
            return m->loaded[i].va + (uint32_t)(pa - m->loaded[i].lo);
    return pc;
}

uint32_t temu_link_address(temu *e, uint32_t pc)
{
    return symbols_link_address(&e->m, e->m.dbg, pc);
}

int temu_read_link(temu *e, uint32_t va, void *buf, size_t len)
{
    machine *m = &e->m;
    for (int i = 0; i < m->nloaded; i++) {
        uint64_t size = m->loaded[i].hi - m->loaded[i].lo;
        uint32_t off = va - m->loaded[i].va;
        if (off < size && len <= size - off)
            return temu_read_phys(e, m->loaded[i].lo + off, buf, len);
    }
    return temu_read_virt(e, va, buf, len);
}

size_t temu_read_link_string(temu *e, uint32_t va, char *buf, size_t len)
{
    size_t n = 0;
    if (!len)
        return 0;
    while (n + 1 < len) {
        char c;
        if (temu_read_link(e, va + (uint32_t)n, &c, 1) || !c)
            break;
        buf[n++] = c >= 0x20 && c < 0x7f ? c : '?';
    }
    buf[n] = 0;
    return n;
}
