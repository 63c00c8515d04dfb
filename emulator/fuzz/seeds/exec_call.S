/* exec seed: calls and returns (jal, jalr, jr $31), nested, a return past
 * the return address, and a store over a return block while its call runs */
	.set noreorder
	.set noat
start:	jal	f10
	addiu	$8, $8, 1
	addiu	$9, $9, 1		/* the first call's return block */
	jal	f20
	nop
	addiu	$10, $10, 3		/* skipped: f20 returns past it */
	addiu	$10, $10, 5
	jal	f30
	nop
ret30:	addiu	$12, $12, 7		/* rewritten by f30 every 4th pass */
	jalr	$13			/* $13 = f10 (set by f30) */
	nop
	b	start
	nop
f10:	jr	$31
	addiu	$11, $11, 1
f20:	move	$14, $31
	jal	f10
	nop
	addiu	$31, $14, 4
	jr	$31
	nop
f30:	addiu	$13, $4, f10 - start	/* $4 = the code's VA */
	andi	$15, $8, 3
	bnez	$15, 1f
	lw	$16, ret30 - start($4)
	xori	$16, $16, 1
	sw	$16, ret30 - start($4)
1:	jr	$31
	nop
