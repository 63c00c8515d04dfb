// SPDX-License-Identifier: GPL-2.0
/*
 * Copied by portkit from overrides/tsar/drivers/vci_block_device.c: edit that
 * file.
 */
/*
 * TSAR VCI block device ("tsar,vci_block_device"): a DMA disk.
 *
 * The driver writes the physical address of a memory buffer (BUFFER, and
 * bits 39..32 in BUFFER_EXT), the first block (LBA) and the block count
 * (COUNT), then OP = READ or WRITE. The device moves the data by DMA and
 * raises its interrupt in a terminal state; reading STATUS returns
 * READ/WRITE_SUCCESS or READ/WRITE_ERROR, acknowledges the interrupt and
 * returns the device to IDLE. SIZE and BLOCK_SIZE describe the disk.
 *
 * One request at a time: it is mapped into a scatterlist and each DMA
 * segment is one device transfer, the next one started from the interrupt
 * of the previous. The disks are /dev/ioc<n>; a "read-only" property in
 * the device tree makes the disk read-only.
 */

#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/scatterlist.h>
#include <linux/spinlock.h>

#include <asm/device-registers.h>

#define VBD_NAME	"ioc"
#define VBD_MINORS	16
#define VBD_MAX_DISKS	16
/* 40-bit physical addresses: BUFFER holds bits 31..0, BUFFER_EXT 39..32. */
#define VBD_DMA_BITS	40
#define VBD_MAX_SEGS	128
#define VBD_MAX_SECTORS	1024	/* 512 KiB per request */

struct vbd_cmd {
	struct scatterlist sg[VBD_MAX_SEGS];
	int mapped;		/* segments handed to dma_map_sg() */
	int nents;		/* DMA segments it gave back */
	int next;		/* segment the device works on */
	u32 lba;		/* its first device block */
	blk_status_t status;
};

struct vbd {
	void __iomem *base;
	struct device *dev;
	spinlock_t lock;	/* device registers and the request in flight */
	struct request *rq;	/* in flight, or NULL */
	unsigned int block_size;
	unsigned int shift;	/* log2(block_size / 512) */
	struct blk_mq_tag_set tag_set;
	struct gendisk *disk;
	int index;
};

static int vbd_major;
static DEFINE_IDA(vbd_ida);

static void vbd_start_segment(struct vbd *vbd, struct vbd_cmd *cmd, bool write)
{
	struct scatterlist *sg = &cmd->sg[cmd->next];
	dma_addr_t addr = sg_dma_address(sg);

	writel(lower_32_bits(addr), vbd->base + BDEV_BUFFER);
	writel(upper_32_bits(addr) & 0xff, vbd->base + BDEV_BUFFER_EXT);
	writel(cmd->lba, vbd->base + BDEV_LBA);
	writel(sg_dma_len(sg) / vbd->block_size, vbd->base + BDEV_COUNT);
	writel(write ? BDEV_OP_WRITE : BDEV_OP_READ, vbd->base + BDEV_OP);
}

static blk_status_t vbd_queue_rq(struct blk_mq_hw_ctx *hctx,
				 const struct blk_mq_queue_data *bd)
{
	struct vbd *vbd = hctx->queue->queuedata;
	struct request *rq = bd->rq;
	struct vbd_cmd *cmd = blk_mq_rq_to_pdu(rq);
	bool write = rq_data_dir(rq) == WRITE;
	unsigned long flags;
	sector_t pos = blk_rq_pos(rq);
	int i, n;

	switch (req_op(rq)) {
	case REQ_OP_READ:
	case REQ_OP_WRITE:
		break;
	default:
		return BLK_STS_NOTSUPP;
	}
	if (pos & ((1 << vbd->shift) - 1) ||
	    (pos >> vbd->shift) + (blk_rq_bytes(rq) / vbd->block_size) > U32_MAX)
		return BLK_STS_IOERR;

	blk_mq_start_request(rq);
	sg_init_table(cmd->sg, VBD_MAX_SEGS);
	n = blk_rq_map_sg(hctx->queue, rq, cmd->sg);
	if (n <= 0)
		return BLK_STS_IOERR;
	cmd->mapped = n;
	cmd->nents = dma_map_sg(vbd->dev, cmd->sg, n,
				write ? DMA_TO_DEVICE : DMA_FROM_DEVICE);
	if (!cmd->nents)
		return BLK_STS_RESOURCE;
	for (i = 0; i < cmd->nents; i++) {
		if (sg_dma_len(&cmd->sg[i]) % vbd->block_size ||
		    sg_dma_address(&cmd->sg[i]) & 3 ||
		    sg_dma_address(&cmd->sg[i]) >> VBD_DMA_BITS) {
			dma_unmap_sg(vbd->dev, cmd->sg, n,
				     write ? DMA_TO_DEVICE : DMA_FROM_DEVICE);
			return BLK_STS_IOERR;
		}
	}
	cmd->next = 0;
	cmd->lba = pos >> vbd->shift;
	cmd->status = BLK_STS_OK;

	spin_lock_irqsave(&vbd->lock, flags);
	vbd->rq = rq;
	vbd_start_segment(vbd, cmd, write);
	spin_unlock_irqrestore(&vbd->lock, flags);
	return BLK_STS_OK;
}

static void vbd_complete_rq(struct request *rq)
{
	struct vbd *vbd = rq->q->queuedata;
	struct vbd_cmd *cmd = blk_mq_rq_to_pdu(rq);

	dma_unmap_sg(vbd->dev, cmd->sg, cmd->mapped,
		     rq_data_dir(rq) == WRITE ? DMA_TO_DEVICE : DMA_FROM_DEVICE);
	blk_mq_end_request(rq, cmd->status);
}

static irqreturn_t vbd_interrupt(int irq, void *dev_id)
{
	struct vbd *vbd = dev_id;
	struct request *rq;
	struct vbd_cmd *cmd;
	u32 status;

	spin_lock(&vbd->lock);
	status = readl(vbd->base + BDEV_STATUS);	/* acknowledges */
	rq = vbd->rq;
	if (status < BDEV_STATUS_READ_SUCCESS || !rq) {
		/* Not a completion, or one nobody waits for (acknowledged). */
		spin_unlock(&vbd->lock);
		return status < BDEV_STATUS_READ_SUCCESS ? IRQ_NONE : IRQ_HANDLED;
	}
	cmd = blk_mq_rq_to_pdu(rq);
	if (status == BDEV_STATUS_READ_SUCCESS || status == BDEV_STATUS_WRITE_SUCCESS) {
		struct scatterlist *sg = &cmd->sg[cmd->next];

		cmd->lba += sg_dma_len(sg) / vbd->block_size;
		if (++cmd->next < cmd->nents) {
			vbd_start_segment(vbd, cmd, rq_data_dir(rq) == WRITE);
			spin_unlock(&vbd->lock);
			return IRQ_HANDLED;
		}
	} else {
		dev_err_ratelimited(vbd->dev, "%s error at block %u (status %u)\n",
				    status == BDEV_STATUS_READ_ERROR ? "read" : "write",
				    cmd->lba, status);
		cmd->status = BLK_STS_IOERR;
	}
	vbd->rq = NULL;
	spin_unlock(&vbd->lock);
	blk_mq_complete_request(rq);
	return IRQ_HANDLED;
}

static const struct blk_mq_ops vbd_mq_ops = {
	.queue_rq	= vbd_queue_rq,
	.complete	= vbd_complete_rq,
};

static const struct block_device_operations vbd_fops = {
	.owner		= THIS_MODULE,
};

static int vbd_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct vbd *vbd;
	u32 blocks;
	int irq, ret;

	vbd = devm_kzalloc(dev, sizeof(*vbd), GFP_KERNEL);
	if (!vbd)
		return -ENOMEM;
	vbd->dev = dev;
	spin_lock_init(&vbd->lock);
	vbd->base = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(vbd->base))
		return PTR_ERR(vbd->base);
	irq = platform_get_irq(pdev, 0);
	if (irq < 0)
		return irq;
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(VBD_DMA_BITS));
	if (ret)
		return ret;

	/* Soft reset, acknowledge a stale completion, interrupts on. */
	writel(BDEV_OP_NOOP, vbd->base + BDEV_OP);
	readl(vbd->base + BDEV_STATUS);
	writel(1, vbd->base + BDEV_IRQ_ENABLE);

	vbd->block_size = readl(vbd->base + BDEV_BLOCK_SIZE);
	blocks = readl(vbd->base + BDEV_SIZE);
	if (vbd->block_size < SECTOR_SIZE || vbd->block_size > PAGE_SIZE ||
	    !is_power_of_2(vbd->block_size)) {
		dev_err(dev, "unsupported block size %u\n", vbd->block_size);
		return -EINVAL;
	}
	vbd->shift = ilog2(vbd->block_size) - SECTOR_SHIFT;

	ret = devm_request_irq(dev, irq, vbd_interrupt, 0, VBD_NAME, vbd);
	if (ret)
		return ret;

	vbd->index = ida_alloc_max(&vbd_ida, VBD_MAX_DISKS - 1, GFP_KERNEL);
	if (vbd->index < 0)
		return vbd->index;

	vbd->tag_set.ops = &vbd_mq_ops;
	vbd->tag_set.nr_hw_queues = 1;
	vbd->tag_set.queue_depth = 1;
	vbd->tag_set.numa_node = NUMA_NO_NODE;
	vbd->tag_set.cmd_size = sizeof(struct vbd_cmd);
	vbd->tag_set.flags = BLK_MQ_F_SHOULD_MERGE;
	ret = blk_mq_alloc_tag_set(&vbd->tag_set);
	if (ret)
		goto err_ida;

	vbd->disk = blk_mq_alloc_disk(&vbd->tag_set, vbd);
	if (IS_ERR(vbd->disk)) {
		ret = PTR_ERR(vbd->disk);
		goto err_tags;
	}
	blk_queue_logical_block_size(vbd->disk->queue, vbd->block_size);
	blk_queue_physical_block_size(vbd->disk->queue, vbd->block_size);
	blk_queue_max_hw_sectors(vbd->disk->queue, VBD_MAX_SECTORS);
	blk_queue_max_segments(vbd->disk->queue, VBD_MAX_SEGS);
	blk_queue_max_segment_size(vbd->disk->queue, VBD_MAX_SECTORS << SECTOR_SHIFT);
	/* Whole blocks in each segment: buffers aligned like the blocks. */
	blk_queue_dma_alignment(vbd->disk->queue, vbd->block_size - 1);

	vbd->disk->major = vbd_major;
	vbd->disk->first_minor = vbd->index * VBD_MINORS;
	vbd->disk->minors = VBD_MINORS;
	vbd->disk->fops = &vbd_fops;
	vbd->disk->private_data = vbd;
	snprintf(vbd->disk->disk_name, DISK_NAME_LEN, VBD_NAME "%d", vbd->index);
	set_capacity(vbd->disk, (sector_t)blocks << vbd->shift);
	if (of_property_read_bool(dev->of_node, "read-only"))
		set_disk_ro(vbd->disk, true);

	ret = add_disk(vbd->disk);
	if (ret)
		goto err_disk;
	platform_set_drvdata(pdev, vbd);
	dev_info(dev, "%s: %u blocks of %u bytes (%llu KiB)%s, irq %d\n",
		 vbd->disk->disk_name, blocks, vbd->block_size,
		 (unsigned long long)blocks * vbd->block_size / 1024,
		 get_disk_ro(vbd->disk) ? ", read-only" : "", irq);
	return 0;

err_disk:
	put_disk(vbd->disk);
err_tags:
	blk_mq_free_tag_set(&vbd->tag_set);
err_ida:
	ida_free(&vbd_ida, vbd->index);
	return ret;
}

static int vbd_remove(struct platform_device *pdev)
{
	struct vbd *vbd = platform_get_drvdata(pdev);

	del_gendisk(vbd->disk);
	put_disk(vbd->disk);
	blk_mq_free_tag_set(&vbd->tag_set);
	writel(0, vbd->base + BDEV_IRQ_ENABLE);
	ida_free(&vbd_ida, vbd->index);
	return 0;
}

static const struct of_device_id vbd_of_match[] = {
	{ .compatible = "tsar,vci_block_device" },
	{ .compatible = "tsar,vci_block_device_tsar_v5" },
	{ }
};
MODULE_DEVICE_TABLE(of, vbd_of_match);

static struct platform_driver vbd_driver = {
	.probe	= vbd_probe,
	.remove	= vbd_remove,
	.driver	= {
		.name		= "vci_block_device",
		.of_match_table	= vbd_of_match,
	},
};

static int __init vbd_init(void)
{
	int ret;

	vbd_major = register_blkdev(0, VBD_NAME);
	if (vbd_major < 0)
		return vbd_major;
	ret = platform_driver_register(&vbd_driver);
	if (ret)
		unregister_blkdev(vbd_major, VBD_NAME);
	return ret;
}

static void __exit vbd_exit(void)
{
	platform_driver_unregister(&vbd_driver);
	unregister_blkdev(vbd_major, VBD_NAME);
}

module_init(vbd_init);
module_exit(vbd_exit);

MODULE_DESCRIPTION("TSAR VCI block device");
MODULE_LICENSE("GPL");
