// SPDX-License-Identifier: GPL-2.0
/*
 * Loadable modules: MIPS o32 REL relocations (the addend is in the
 * relocated field). Modules are built with -mlong-calls, so their calls
 * to the kernel are HI16/LO16 pairs and reach any address; R_MIPS_26
 * (a jal/j inside a module) only needs the target in the same 256 MiB
 * region as the instruction.
 */

#include <linux/elf.h>
#include <linux/kernel.h>
#include <linux/moduleloader.h>
#include <linux/slab.h>

/* The o32 relocation types (MIPS ELF psABI) a module can hold. */
#define R_MIPS_NONE	0
#define R_MIPS_32	2
#define R_MIPS_26	4
#define R_MIPS_HI16	5
#define R_MIPS_LO16	6
#define R_MIPS_PC16	10

/* A HI16 waiting for the LO16 that completes its addend. */
struct pending_hi16 {
	u32 *loc;
	Elf32_Addr value;
	unsigned int sym;
};

static int apply_r_mips_26(struct module *me, u32 *loc, Elf32_Addr v)
{
	u32 target = ((*loc & 0x03ffffff) << 2) + v;

	if (v & 3) {
		pr_err("%s: R_MIPS_26 to a misaligned address %08x\n",
		       me->name, v);
		return -ENOEXEC;
	}
	if ((target & 0xf0000000) != (((u32)loc + 4) & 0xf0000000)) {
		pr_err("%s: R_MIPS_26 to %08x: out of the 256 MiB region (build with -mlong-calls)\n",
		       me->name, target);
		return -ENOEXEC;
	}
	*loc = (*loc & ~0x03ffffff) | ((target >> 2) & 0x03ffffff);
	return 0;
}

static int apply_r_mips_pc16(struct module *me, u32 *loc, Elf32_Addr v)
{
	s32 off = ((s32)(s16)(*loc & 0xffff) << 2) + v - ((u32)loc + 4);

	if (off & 3 || off < -0x20000 || off > 0x1fffc) {
		pr_err("%s: R_MIPS_PC16 out of range\n", me->name);
		return -ENOEXEC;
	}
	*loc = (*loc & 0xffff0000) | ((off >> 2) & 0xffff);
	return 0;
}

int apply_relocate(Elf32_Shdr *sechdrs, const char *strtab,
		   unsigned int symindex, unsigned int relsec,
		   struct module *me)
{
	Elf32_Shdr *rsec = &sechdrs[relsec];
	Elf32_Rel *rel = (void *)rsec->sh_addr;
	unsigned int i, n = rsec->sh_size / sizeof(*rel);
	struct pending_hi16 *hi = NULL;
	unsigned int nhi = 0;
	int err = 0;

	if (n) {
		hi = kmalloc_array(n, sizeof(*hi), GFP_KERNEL);
		if (!hi)
			return -ENOMEM;
	}

	for (i = 0; i < n && !err; i++) {
		u32 *loc = (u32 *)(sechdrs[rsec->sh_info].sh_addr +
				   rel[i].r_offset);
		Elf32_Sym *sym = (Elf32_Sym *)sechdrs[symindex].sh_addr +
				 ELF32_R_SYM(rel[i].r_info);
		Elf32_Addr v = sym->st_value;
		unsigned int type = ELF32_R_TYPE(rel[i].r_info);

		if (sym->st_shndx == SHN_UNDEF && ELF_ST_BIND(sym->st_info) !=
		    STB_WEAK && !v && type != R_MIPS_NONE) {
			pr_err("%s: undefined symbol %s\n", me->name,
			       strtab + sym->st_name);
			err = -ENOENT;
			break;
		}

		switch (type) {
		case R_MIPS_NONE:
			break;
		case R_MIPS_32:
			*loc += v;
			break;
		case R_MIPS_26:
			err = apply_r_mips_26(me, loc, v);
			break;
		case R_MIPS_PC16:
			err = apply_r_mips_pc16(me, loc, v);
			break;
		case R_MIPS_HI16:
			/* The addend's low half is in the matching LO16. */
			hi[nhi].loc = loc;
			hi[nhi].value = v;
			hi[nhi].sym = ELF32_R_SYM(rel[i].r_info);
			nhi++;
			break;
		case R_MIPS_LO16: {
			s32 lo = (s16)(*loc & 0xffff);
			unsigned int j;

			/* Every pending HI16 of this symbol pairs with it. */
			for (j = 0; j < nhi; j++) {
				u32 ahl = ((*hi[j].loc & 0xffff) << 16) + lo;
				u32 val = hi[j].value + ahl;

				if (hi[j].sym != ELF32_R_SYM(rel[i].r_info)) {
					pr_err("%s: R_MIPS_HI16 without a matching R_MIPS_LO16\n",
					       me->name);
					err = -ENOEXEC;
					break;
				}
				*hi[j].loc = (*hi[j].loc & 0xffff0000) |
					     (((val + 0x8000) >> 16) & 0xffff);
			}
			nhi = 0;
			*loc = (*loc & 0xffff0000) | ((v + lo) & 0xffff);
			break;
		}
		default:
			pr_err("%s: unsupported relocation type %u\n",
			       me->name, type);
			err = -ENOEXEC;
		}
	}

	if (!err && nhi) {
		pr_err("%s: R_MIPS_HI16 without a R_MIPS_LO16\n", me->name);
		err = -ENOEXEC;
	}
	kfree(hi);
	return err;
}
