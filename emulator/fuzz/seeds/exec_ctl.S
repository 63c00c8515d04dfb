/* exec seed: branches, jumps, likely forms, delay slots, CP0/CP2 access */
	.set noreorder
	.set noat
1:	beq	$1, $0, 2f
	addiu	$8, $8, 1
	bne	$1, $2, 2f
	nop
2:	bltzal	$3, 3f
	nop
	bgezal	$0, 3f
	addiu	$9, $9, 1
3:	beql	$1, $1, 4f
	addiu	$10, $10, 1
4:	bnel	$1, $1, 5f
	teq	$0, $0
5:	blez	$1, 6f
	nop
6:	bgtzl	$2, 7f
	nop
7:	jal	8f
	nop
8:	jalr	$9, $31
	nop
	mfc0	$8, $12
	mtc0	$8, $12
	mfc0	$9, $13
	mfc0	$10, $15, 1
	mtc0	$0, $9
	mfc2	$11, $0
	mfc2	$12, $1
	mtc2	$0, $10
	mtc2	$5, $5
	mtc2	$5, $4
	mfc2	$13, $15
	mfc2	$14, $16
	mtc2	$0, $3
	di
	ei
	wait
	eret
	j	1b
	nop
