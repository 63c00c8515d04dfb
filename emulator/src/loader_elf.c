/*
 * loader_elf.c - "dummy boot" ELF loader (reference section 5): every
 * PT_LOAD segment is copied to its physical address (p_paddr), the rest of
 * p_memsz is zero-filled, and the entry point becomes the reset PC.  The
 * input is untrusted: every offset and size is checked.
 */
#include <elf.h>
#include <string.h>

#include "internal.h"

int elf_load(machine *m, const void *buf, size_t len, const char *name, char *err,
             size_t errlen)
{
    const uint8_t *b = buf;
    if (!name)
        name = "ELF image";
    if (len < 4 || memcmp(b, ELFMAG, SELFMAG) != 0) {
        errf(err, errlen, "%s: not an ELF file%s", name, len < 4 ? " (too short)" : "");
        return -1;
    }
    if (len < sizeof(Elf32_Ehdr)) {
        errf(err, errlen, "%s: truncated ELF header (%zu bytes)", name, len);
        return -1;
    }
    if (b[EI_CLASS] != ELFCLASS32) {
        errf(err, errlen, "%s: not a 32-bit ELF (class %u); TSAR is MIPS32", name, b[EI_CLASS]);
        return -1;
    }
    if (b[EI_DATA] != ELFDATA2LSB) {
        errf(err, errlen, "%s: not a little-endian ELF; TSAR is little-endian", name);
        return -1;
    }
    uint16_t type = rd16(b + offsetof(Elf32_Ehdr, e_type));
    uint16_t mach = rd16(b + offsetof(Elf32_Ehdr, e_machine));
    if (mach != EM_MIPS) {
        errf(err, errlen, "%s: wrong ELF machine %u (expected %u, MIPS)", name, mach, EM_MIPS);
        return -1;
    }
    if (type != ET_EXEC) {
        errf(err, errlen, "%s: not an executable ELF (e_type %u)", name, type);
        return -1;
    }
    uint32_t entry = rd32(b + offsetof(Elf32_Ehdr, e_entry));
    uint32_t phoff = rd32(b + offsetof(Elf32_Ehdr, e_phoff));
    uint16_t phentsize = rd16(b + offsetof(Elf32_Ehdr, e_phentsize));
    uint16_t phnum = rd16(b + offsetof(Elf32_Ehdr, e_phnum));
    if (phnum == 0) {
        errf(err, errlen, "%s: no program headers", name);
        return -1;
    }
    if (phentsize != sizeof(Elf32_Phdr)) {
        errf(err, errlen, "%s: bad program header size %u", name, phentsize);
        return -1;
    }
    if (phoff > len || (uint64_t)phnum * phentsize > len - phoff) {
        errf(err, errlen, "%s: truncated: program headers extend past the end of the file",
             name);
        return -1;
    }
    /* Validate everything before touching guest memory. */
    int nload = 0;
    bool entry_mapped = false;
    uint64_t entry_pa = entry;
    for (unsigned i = 0; i < phnum; i++) {
        const uint8_t *ph = b + phoff + (size_t)i * phentsize;
        if (rd32(ph + offsetof(Elf32_Phdr, p_type)) != PT_LOAD)
            continue;
        uint32_t off = rd32(ph + offsetof(Elf32_Phdr, p_offset));
        uint32_t vaddr = rd32(ph + offsetof(Elf32_Phdr, p_vaddr));
        uint32_t paddr = rd32(ph + offsetof(Elf32_Phdr, p_paddr));
        uint32_t filesz = rd32(ph + offsetof(Elf32_Phdr, p_filesz));
        uint32_t memsz = rd32(ph + offsetof(Elf32_Phdr, p_memsz));
        if (filesz > memsz) {
            errf(err, errlen, "%s: segment %u has p_filesz > p_memsz", name, i);
            return -1;
        }
        if (off > len || filesz > len - off) {
            errf(err, errlen,
                 "%s: truncated: segment %u (offset 0x%x, size 0x%x) extends past the end of "
                 "the file (%zu bytes)",
                 name, i, off, filesz, len);
            return -1;
        }
        if (memsz && !bus_ram_ptr(m, paddr, memsz)) {
            errf(err, errlen,
                 "%s: segment %u at physical 0x%08x..0x%08llx is not inside a RAM bank", name,
                 i, paddr, (unsigned long long)paddr + memsz - 1);
            return -1;
        }
        if (entry - vaddr < memsz && !entry_mapped) {
            entry_mapped = true;
            entry_pa = (uint64_t)paddr + (entry - vaddr);
        }
        nload++;
    }
    if (!nload) {
        errf(err, errlen, "%s: no loadable (PT_LOAD) segment", name);
        return -1;
    }
    if (entry_pa > 0xFFFFFFFFull || !bus_ram_ptr(m, entry_pa, 4)) {
        errf(err, errlen, "%s: entry point 0x%08x (physical 0x%llx) is not in RAM", name, entry,
             (unsigned long long)entry_pa);
        return -1;
    }
    for (unsigned i = 0; i < phnum; i++) {
        const uint8_t *ph = b + phoff + (size_t)i * phentsize;
        if (rd32(ph + offsetof(Elf32_Phdr, p_type)) != PT_LOAD)
            continue;
        uint32_t off = rd32(ph + offsetof(Elf32_Phdr, p_offset));
        uint32_t vaddr = rd32(ph + offsetof(Elf32_Phdr, p_vaddr));
        uint32_t paddr = rd32(ph + offsetof(Elf32_Phdr, p_paddr));
        uint32_t filesz = rd32(ph + offsetof(Elf32_Phdr, p_filesz));
        uint32_t memsz = rd32(ph + offsetof(Elf32_Phdr, p_memsz));
        if (!memsz)
            continue;
        uint8_t *dst = bus_ram_ptr(m, paddr, memsz);
        memcpy(dst, b + off, filesz);
        memset(dst + filesz, 0, memsz - filesz);
        bus_ram_written(m, paddr, memsz);
        if (m->nloaded < (int)(sizeof m->loaded / sizeof m->loaded[0])) {
            m->loaded[m->nloaded].lo = paddr;
            m->loaded[m->nloaded].hi = (uint64_t)paddr + memsz;
            m->loaded[m->nloaded].va = vaddr;
            m->nloaded++;
        }
    }
    m->entry = (uint32_t)entry_pa;
    m->have_entry = true;
    symbols_load(m, buf, len);
    return 0;
}
