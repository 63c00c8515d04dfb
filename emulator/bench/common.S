/* fmt_chk: write "CHK xxxxxxxx\n\0" for the value in $16 into msg. */
	.set noreorder
	.text
	.globl fmt_chk
fmt_chk:
	la	$8, msg + 4
	li	$10, 28
1:	srlv	$9, $16, $10
	andi	$9, $9, 0xF
	sltiu	$11, $9, 10
	bnez	$11, 2f
	addiu	$9, $9, '0'
	addiu	$9, $9, 'a' - '0' - 10
2:	sb	$9, 0($8)
	addiu	$8, $8, 1
	bnez	$10, 1b
	addiu	$10, $10, -4
	jr	$31
	nop

	.data
	.globl msg
msg:	.ascii	"CHK xxxxxxxx\n"
	.byte	0
