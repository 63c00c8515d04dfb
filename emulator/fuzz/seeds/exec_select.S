/* exec seed: data-dependent branches whose sides meet again (the shapes the
 * JIT if-converts): b over the other side, a skip, unequal sides, sides that
 * write the branch's sources, $0 and each other's inputs */
	.set noreorder
	.set noat
	sll	$1, $4, 5
	addu	$4, $4, $1
	addiu	$4, $4, 0x3c5
	andi	$2, $4, 0x100
	beqz	$2, 1f
	srl	$5, $5, 1
	b	2f
	xor	$5, $5, $6
1:	nop
	nop
2:	andi	$2, $4, 0x200
	bnez	$2, 3f
	addu	$7, $7, $5
	addiu	$8, $8, 7
	xor	$9, $9, $8
3:	bltz	$4, 4f
	nop
	addu	$10, $10, $9
	subu	$2, $10, $7
	b	5f
	sll	$11, $11, 1
4:	or	$11, $11, $10
	addu	$0, $10, $11
	lui	$12, 0x1234
5:	andi	$2, $5, 3
	andi	$3, $8, 3
	bne	$2, $3, 6f
	nop
	addiu	$2, $2, 1
	nor	$3, $3, $2
	addu	$12, $12, $3
6:	beq	$13, $14, 7f
	sra	$13, $4, 3
	move	$14, $13
7:	bgez	$15, 8f
	srl	$15, $4, 7
	lui	$15, 0x8000
	ori	$15, $15, 1
8:	nop
