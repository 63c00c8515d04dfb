// SPDX-License-Identifier: GPL-2.0
/* Copied by portkit from overrides/tsar/drivers/vci_tty.c: edit that file. */
/*
 * SoCLib VCI multi-TTY: a console and serial port per channel.
 *
 * Each 16-byte channel has WRITE (a byte written is output at once, the
 * device never stalls), STATUS (bit 0: a received byte is waiting) and
 * READ (returns and consumes that byte). The receive interrupt is a level
 * line that stays up while a byte is waiting. Devices are /dev/ttyVTTY<n>.
 */

#include <linux/console.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/serial.h>
#include <linux/serial_core.h>
#include <linux/tty.h>
#include <linux/tty_flip.h>

#include <asm/device-registers.h>

/* Later kernels define it: a port type userspace has no use for. */
#ifndef PORT_GENERIC
#define PORT_GENERIC	(-1)
#endif

#define VCI_TTY_NAME	"ttyVTTY"
#define VCI_TTY_MAX	8

static struct uart_port *vci_tty_ports[VCI_TTY_MAX];

static void vci_tty_putchar(struct uart_port *port, unsigned char ch)
{
	writel(ch, port->membase + TTY_WRITE);
}

static unsigned int vci_tty_tx_empty(struct uart_port *port)
{
	return TIOCSER_TEMT;	/* output is never buffered */
}

static void vci_tty_set_mctrl(struct uart_port *port, unsigned int mctrl)
{
}

static unsigned int vci_tty_get_mctrl(struct uart_port *port)
{
	return TIOCM_CAR | TIOCM_DSR | TIOCM_CTS;
}

static void vci_tty_stop_tx(struct uart_port *port)
{
}

/* The device takes every byte at once: drain the buffer here. */
static void vci_tty_start_tx(struct uart_port *port)
{
	struct circ_buf *xmit = &port->state->xmit;

	if (port->x_char) {
		vci_tty_putchar(port, port->x_char);
		port->icount.tx++;
		port->x_char = 0;
	}
	while (!uart_circ_empty(xmit) && !uart_tx_stopped(port)) {
		vci_tty_putchar(port, xmit->buf[xmit->tail]);
		xmit->tail = (xmit->tail + 1) & (UART_XMIT_SIZE - 1);
		port->icount.tx++;
	}
	if (uart_circ_chars_pending(xmit) < WAKEUP_CHARS)
		uart_write_wakeup(port);
}

static void vci_tty_stop_rx(struct uart_port *port)
{
}

static irqreturn_t vci_tty_interrupt(int irq, void *dev_id)
{
	struct uart_port *port = dev_id;
	unsigned int handled = 0;

	spin_lock(&port->lock);
	while (readl(port->membase + TTY_STATUS) & TTY_STATUS_RX) {
		unsigned char ch = readl(port->membase + TTY_READ);

		port->icount.rx++;
		handled++;
		if (!uart_handle_sysrq_char(port, ch))
			tty_insert_flip_char(&port->state->port, ch, TTY_NORMAL);
	}
	spin_unlock(&port->lock);
	if (handled)
		tty_flip_buffer_push(&port->state->port);
	return handled ? IRQ_HANDLED : IRQ_NONE;
}

static int vci_tty_startup(struct uart_port *port)
{
	return request_irq(port->irq, vci_tty_interrupt, 0, VCI_TTY_NAME, port);
}

static void vci_tty_shutdown(struct uart_port *port)
{
	free_irq(port->irq, port);
}

static void vci_tty_set_termios(struct uart_port *port,
				struct ktermios *termios,
				const struct ktermios *old)
{
	/* No line settings: keep what the caller asked for, at a nominal rate. */
	uart_update_timeout(port, termios->c_cflag, 115200);
}

static const char *vci_tty_type(struct uart_port *port)
{
	return "vci_multi_tty";
}

static void vci_tty_config_port(struct uart_port *port, int flags)
{
	if (flags & UART_CONFIG_TYPE)
		port->type = PORT_GENERIC;
}

static const struct uart_ops vci_tty_ops = {
	.tx_empty	= vci_tty_tx_empty,
	.set_mctrl	= vci_tty_set_mctrl,
	.get_mctrl	= vci_tty_get_mctrl,
	.stop_tx	= vci_tty_stop_tx,
	.start_tx	= vci_tty_start_tx,
	.stop_rx	= vci_tty_stop_rx,
	.startup	= vci_tty_startup,
	.shutdown	= vci_tty_shutdown,
	.set_termios	= vci_tty_set_termios,
	.type		= vci_tty_type,
	.config_port	= vci_tty_config_port,
};

static void vci_tty_console_putchar(struct uart_port *port, unsigned char ch)
{
	vci_tty_putchar(port, ch);
}

static void vci_tty_console_write(struct console *co, const char *s,
				  unsigned int count)
{
	struct uart_port *port = vci_tty_ports[co->index];

	uart_console_write(port, s, count, vci_tty_console_putchar);
}

static int vci_tty_console_setup(struct console *co, char *options)
{
	if (co->index < 0 || co->index >= VCI_TTY_MAX || !vci_tty_ports[co->index])
		return -ENODEV;
	return 0;
}

static struct uart_driver vci_tty_driver;

static struct console vci_tty_console = {
	.name	= VCI_TTY_NAME,
	.write	= vci_tty_console_write,
	.device	= uart_console_device,
	.setup	= vci_tty_console_setup,
	.flags	= CON_PRINTBUFFER,
	.index	= -1,
	.data	= &vci_tty_driver,
};

static struct uart_driver vci_tty_driver = {
	.owner		= THIS_MODULE,
	.driver_name	= "vci_tty",
	.dev_name	= VCI_TTY_NAME,
	.nr		= VCI_TTY_MAX,
	.cons		= &vci_tty_console,
};

static int vci_tty_probe(struct platform_device *pdev)
{
	struct uart_port *port;
	struct resource *res;
	int id, irq;

	id = of_alias_get_id(pdev->dev.of_node, "serial");
	if (id < 0)
		id = 0;
	if (id >= VCI_TTY_MAX || vci_tty_ports[id])
		return -EINVAL;

	port = devm_kzalloc(&pdev->dev, sizeof(*port), GFP_KERNEL);
	if (!port)
		return -ENOMEM;
	port->membase = devm_platform_get_and_ioremap_resource(pdev, 0, &res);
	if (IS_ERR(port->membase))
		return PTR_ERR(port->membase);
	irq = platform_get_irq(pdev, 0);
	if (irq < 0)
		return irq;

	port->mapbase = res->start;
	port->irq = irq;
	port->line = id;
	port->dev = &pdev->dev;
	port->iotype = UPIO_MEM32;
	port->type = PORT_GENERIC;
	port->ops = &vci_tty_ops;
	port->fifosize = 1;
	port->flags = UPF_BOOT_AUTOCONF;
	port->has_sysrq = IS_ENABLED(CONFIG_SERIAL_CORE_CONSOLE);

	vci_tty_ports[id] = port;
	platform_set_drvdata(pdev, port);
	return uart_add_one_port(&vci_tty_driver, port);
}

static int vci_tty_remove(struct platform_device *pdev)
{
	struct uart_port *port = platform_get_drvdata(pdev);

	uart_remove_one_port(&vci_tty_driver, port);
	vci_tty_ports[port->line] = NULL;
	return 0;
}

static const struct of_device_id vci_tty_of_match[] = {
	{ .compatible = "soclib,vci_multi_tty" },
	{ }
};
MODULE_DEVICE_TABLE(of, vci_tty_of_match);

static struct platform_driver vci_tty_platform_driver = {
	.probe	= vci_tty_probe,
	.remove	= vci_tty_remove,
	.driver	= {
		.name		= "vci_tty",
		.of_match_table	= vci_tty_of_match,
	},
};

static int __init vci_tty_init(void)
{
	int ret = uart_register_driver(&vci_tty_driver);

	if (ret)
		return ret;
	ret = platform_driver_register(&vci_tty_platform_driver);
	if (ret)
		uart_unregister_driver(&vci_tty_driver);
	return ret;
}
device_initcall(vci_tty_init);

/* earlycon: "earlycon" on the command line with stdout-path at the TTY. */
static void vci_tty_early_write(struct console *con, const char *s,
				unsigned int n)
{
	struct earlycon_device *dev = con->data;

	uart_console_write(&dev->port, s, n, vci_tty_console_putchar);
}

static int __init vci_tty_early_setup(struct earlycon_device *dev,
				      const char *options)
{
	if (!dev->port.membase)
		return -ENODEV;
	dev->con->write = vci_tty_early_write;
	return 0;
}
OF_EARLYCON_DECLARE(vci_tty, "soclib,vci_multi_tty", vci_tty_early_setup);

MODULE_DESCRIPTION("SoCLib VCI multi-TTY serial driver");
MODULE_LICENSE("GPL");
