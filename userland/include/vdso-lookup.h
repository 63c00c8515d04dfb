/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vdso_lookup(): the address of a versioned symbol of the vDSO, found
 * from the ELF image the kernel maps into every process (AT_SYSINFO_EHDR
 * in the auxiliary vector), for guest programs built with nolibc or musl.
 * Its own ELF32 structures, so it needs no <elf.h>.
 */
#ifndef PORTKIT_VDSO_LOOKUP_H
#define PORTKIT_VDSO_LOOKUP_H

#define VL_AT_SYSINFO_EHDR	33
#define VL_PT_LOAD		1
#define VL_PT_DYNAMIC		2
#define VL_DT_NULL		0
#define VL_DT_HASH		4
#define VL_DT_STRTAB		5
#define VL_DT_SYMTAB		6
#define VL_DT_VERSYM		0x6ffffff0
#define VL_DT_VERDEF		0x6ffffffc
#define VL_STT_FUNC		2
#define VL_STB_GLOBAL		1

struct vl_ehdr {
	unsigned char ident[16];
	unsigned short type, machine;
	unsigned int version, entry, phoff, shoff, flags;
	unsigned short ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct vl_phdr {
	unsigned int type, offset, vaddr, paddr, filesz, memsz, flags, align;
};

struct vl_dyn {
	int tag;
	unsigned int val;
};

struct vl_sym {
	unsigned int name, value, size;
	unsigned char info, other;
	unsigned short shndx;
};

struct vl_verdef {
	unsigned short version, flags, ndx, cnt;
	unsigned int hash, aux, next;
};

struct vl_verdaux {
	unsigned int name, next;
};

/* The auxiliary vector entry 'type' (0: none), from the environment's end. */
static inline unsigned long vl_getauxval(char **envp, unsigned long type)
{
	unsigned long *aux;

	while (*envp)
		envp++;
	for (aux = (unsigned long *)(envp + 1); aux[0]; aux += 2)
		if (aux[0] == type)
			return aux[1];
	return 0;
}

/* Does version index 'ndx' of the image carry the name 'want'? */
static inline int vl_version_is(const char *base, const struct vl_verdef *def,
				const char *strtab, unsigned short ndx,
				const char *want)
{
	for (;;) {
		if ((def->ndx & 0x7fff) == (ndx & 0x7fff)) {
			const struct vl_verdaux *aux =
				(const void *)((const char *)def + def->aux);
			const char *a = strtab + aux->name, *b = want;

			while (*a && *a == *b)
				a++, b++;
			return *a == *b;
		}
		if (!def->next)
			return 0;
		def = (const void *)((const char *)def + def->next);
	}
	(void)base;
}

/* The address of 'name' at version 'version' in the vDSO at 'ehdr_addr', or 0. */
static inline void *vdso_lookup(unsigned long ehdr_addr, const char *version,
				const char *name)
{
	const char *base = (const char *)ehdr_addr;
	const struct vl_ehdr *eh = (const void *)base;
	const struct vl_phdr *ph;
	const struct vl_dyn *dyn = 0;
	const struct vl_sym *symtab = 0;
	const unsigned int *hash = 0;
	const unsigned short *versym = 0;
	const struct vl_verdef *verdef = 0;
	const char *strtab = 0;
	unsigned long load = 0;
	unsigned int i;
	int have_load = 0;

	if (!base || eh->ident[0] != 0x7f || eh->ident[1] != 'E' ||
	    eh->ident[2] != 'L' || eh->ident[3] != 'F')
		return 0;
	ph = (const void *)(base + eh->phoff);
	for (i = 0; i < eh->phnum; i++) {
		if (ph[i].type == VL_PT_LOAD && !have_load) {
			load = ehdr_addr + ph[i].offset - ph[i].vaddr;
			have_load = 1;
		} else if (ph[i].type == VL_PT_DYNAMIC) {
			dyn = (const void *)(base + ph[i].offset);
		}
	}
	if (!have_load || !dyn)
		return 0;
	for (; dyn->tag != VL_DT_NULL; dyn++) {
		const void *p = (const void *)(load + dyn->val);

		switch (dyn->tag) {
		case VL_DT_HASH: hash = p; break;
		case VL_DT_STRTAB: strtab = p; break;
		case VL_DT_SYMTAB: symtab = p; break;
		case VL_DT_VERSYM: versym = p; break;
		case VL_DT_VERDEF: verdef = p; break;
		}
	}
	if (!hash || !strtab || !symtab)
		return 0;
	/* hash[1]: the number of symbols. */
	for (i = 0; i < hash[1]; i++) {
		const struct vl_sym *s = &symtab[i];
		const char *a = strtab + s->name, *b = name;

		if ((s->info & 0xf) != VL_STT_FUNC || (s->info >> 4) != VL_STB_GLOBAL ||
		    !s->shndx)
			continue;
		while (*a && *a == *b)
			a++, b++;
		if (*a != *b)
			continue;
		if (version && versym && verdef &&
		    !vl_version_is(base, verdef, strtab, versym[i], version))
			continue;
		return (void *)(load + s->value);
	}
	return 0;
}

#endif /* PORTKIT_VDSO_LOOKUP_H */
