/* exec seed: integer ALU, shifts, R2 bit ops, HI/LO */
	.set noreorder
	.set noat
	addu	$8, $9, $10
	subu	$11, $8, $12
	add	$13, $1, $1
	sub	$14, $2, $3
	addiu	$15, $15, -1
	addi	$16, $4, 0x7fff
	slt	$17, $8, $9
	sltu	$18, $8, $9
	slti	$19, $8, -5
	sltiu	$20, $8, 7
	and	$21, $8, $9
	or	$22, $8, $9
	xor	$23, $8, $9
	nor	$24, $8, $9
	andi	$25, $8, 0xff00
	ori	$8, $8, 0x1234
	xori	$9, $9, 0xffff
	lui	$10, 0x8000
	sll	$11, $10, 3
	srl	$12, $10, 31
	sra	$13, $10, 4
	sllv	$14, $10, $2
	srlv	$15, $10, $3
	srav	$16, $10, $4
	rotr	$17, $8, 7
	rotrv	$18, $8, $9
	mult	$8, $9
	mfhi	$19
	mflo	$20
	multu	$8, $9
	div	$0, $8, $9
	divu	$0, $8, $9
	div	$0, $8, $0
	madd	$8, $9
	maddu	$8, $9
	msub	$8, $9
	msubu	$8, $9
	mthi	$8
	mtlo	$9
	mul	$21, $8, $9
	clz	$22, $8
	clo	$23, $8
	movn	$24, $8, $9
	movz	$25, $8, $0
	seb	$8, $9
	seh	$9, $10
	wsbh	$10, $11
	ext	$11, $12, 3, 7
	ins	$12, $13, 5, 9
	teq	$0, $0
	tne	$0, $1
	tge	$1, $2
	break
	syscall
	sync
	ehb
	rdhwr	$3, $29
	rdhwr	$3, $2
