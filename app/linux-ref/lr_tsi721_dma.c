/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Linux's tsi721 driver with CONFIG_RAPIDIO_DMA_ENGINE (which rio.c's DMA
 * API needs, and which changes struct rio_mport for every file) calls the
 * entry points of its block DMA engine, tsi721_dma.c. That file is not
 * built: the Tsi721 model has no data BDMA channels yet (only the
 * maintenance channel), so the driver's mport registers no DMA device and
 * rio_request_mport_dma() on it finds no channel (-ENODEV to a client).
 * These are what the driver calls, doing what no channel needs.
 */

struct tsi721_bdma_chan;
struct tsi721_device;

int tsi721_register_dma(struct tsi721_device *priv);
void tsi721_unregister_dma(struct tsi721_device *priv);
void tsi721_dma_stop_all(struct tsi721_device *priv);
void tsi721_bdma_handler(struct tsi721_bdma_chan *bdma_chan);

int
tsi721_register_dma(struct tsi721_device *priv)
{
	(void)priv;
	return 0;
}

void
tsi721_unregister_dma(struct tsi721_device *priv)
{
	(void)priv;
}

void
tsi721_dma_stop_all(struct tsi721_device *priv)
{
	(void)priv;
}

/* Never called: no data channel's interrupt is enabled (tsi721_bdma_interrupt_enable()). */
void
tsi721_bdma_handler(struct tsi721_bdma_chan *bdma_chan)
{
	WARN(1, "tsi721: interrupt of a block DMA channel, but no channel is set up\n");
	(void)bdma_chan;
}
