/* fmt_chk: write "CHK xxxxxxxx\n\0" for the value in $16 into msg. */
	.set noreorder
	.text
	.globl fmt_chk
fmt_chk:
	la	$8, msg + 4
	li	$10, 28
	la	$11, hexdigits		/* table lookup: the instruction count */
1:	srlv	$9, $16, $10		/* does not depend on the value */
	andi	$9, $9, 0xF
	addu	$9, $9, $11
	lbu	$9, 0($9)
	sb	$9, 0($8)
	addiu	$8, $8, 1
	bnez	$10, 1b
	addiu	$10, $10, -4
	jr	$31
	nop

	.data
hexdigits:
	.ascii	"0123456789abcdef"
	.globl msg
msg:	.ascii	"CHK xxxxxxxx\n"
	.byte	0
