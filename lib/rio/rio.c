/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Mport registry: drivers register their master ports here, applications
 * look them up by index or name.
 */

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_spinlock.h>
#include <rte_string_fns.h>

#include "rio_private.h"
#include "rte_rio_dev.h"

RTE_LOG_REGISTER_DEFAULT(rio_logtype, NOTICE);

/* Per-process registry: slot i holds the mport with id i. */
static struct {
	rte_spinlock_t lock;
	uint16_t count;
	struct rte_rio_mport *slots[RTE_RIO_MAX_MPORTS];
} rio_registry = {
	.lock = RTE_SPINLOCK_INITIALIZER,
};

/* Caller holds rio_registry.lock. */
static struct rte_rio_mport *
rio_registry_lookup(const char *name)
{
	unsigned int i;

	for (i = 0; i < RTE_RIO_MAX_MPORTS; i++) {
		struct rte_rio_mport *mport = rio_registry.slots[i];

		if (mport != NULL && strcmp(mport->name, name) == 0)
			return mport;
	}
	return NULL;
}

/* Caller holds rio_registry.lock. @return a free id, or -1. */
static int
rio_registry_free_slot(void)
{
	unsigned int i;

	for (i = 0; i < RTE_RIO_MAX_MPORTS; i++)
		if (rio_registry.slots[i] == NULL)
			return i;
	return -1;
}

static int
rio_mport_conf_check(const struct rte_rio_mport_conf *conf)
{
	const struct rte_rio_mport_ops *ops;
	size_t len;

	if (conf == NULL || conf->name == NULL) {
		RIO_LOG(ERR, "no configuration or no name");
		return -EINVAL;
	}
	len = strnlen(conf->name, RTE_RIO_NAME_MAX_LEN);
	if (len == 0 || len >= RTE_RIO_NAME_MAX_LEN) {
		RIO_LOG(ERR, "mport name empty or longer than %d characters",
			RTE_RIO_NAME_MAX_LEN - 1);
		return -EINVAL;
	}
	ops = conf->ops;
	if (ops == NULL || ops->lcread == NULL || ops->lcwrite == NULL ||
	    ops->cread == NULL || ops->cwrite == NULL || ops->dsend == NULL ||
	    ops->dbell_fetch == NULL || ops->open_outb_mbox == NULL ||
	    ops->close_outb_mbox == NULL || ops->open_inb_mbox == NULL ||
	    ops->close_inb_mbox == NULL || ops->add_outb_messages == NULL ||
	    ops->outb_completion == NULL || ops->add_inb_buffers == NULL ||
	    ops->get_inb_messages == NULL) {
		RIO_LOG(ERR, "mport %s: missing mandatory op", conf->name);
		return -EINVAL;
	}
	if ((conf->inb_inplace_max != 0) != (ops->get_inb_messages_inplace != NULL) ||
	    (conf->inb_inplace_max != 0 && conf->inb_inplace_max < RTE_RIO_MIN_MSG_SIZE) ||
	    conf->inb_inplace_max > RTE_RIO_MAX_MSG_SIZE) {
		RIO_LOG(ERR, "mport %s: in-place receive size %u and its op do not match",
			conf->name, conf->inb_inplace_max);
		return -EINVAL;
	}
	if (conf->devid_size != 8 && conf->devid_size != 16) {
		RIO_LOG(ERR, "mport %s: device ID size %u is not 8 or 16",
			conf->name, conf->devid_size);
		return -EINVAL;
	}
	if (conf->host_destid < RTE_RIO_NO_HOST ||
	    conf->host_destid >= RTE_RIO_MAX_DESTIDS(conf->devid_size)) {
		RIO_LOG(ERR, "mport %s: host device ID %d out of range",
			conf->name, conf->host_destid);
		return -EINVAL;
	}
	return 0;
}

/* An mport and the library's state of it, in one allocation. */
struct rio_mport_alloc {
	struct rte_rio_mport mport;	/* first: rte_free(mport) frees both */
	struct rio_mport_state state;
};

struct rte_rio_mport *
rte_rio_mport_register(const struct rte_rio_mport_conf *conf)
{
	struct rio_mport_alloc *alloc;
	struct rte_rio_mport *mport = NULL;
	uint8_t rmap = 0;
	int32_t efptr;
	int ret;
	int id;

	ret = rio_mport_conf_check(conf);
	if (ret < 0)
		goto fail;

	rte_spinlock_lock(&rio_registry.lock);
	ret = rio_registry_lookup(conf->name) != NULL ? -EEXIST : 0;
	rte_spinlock_unlock(&rio_registry.lock);
	if (ret < 0) {
		RIO_LOG(ERR, "mport name %s already registered", conf->name);
		goto fail;
	}

	alloc = rte_zmalloc("rio_mport", sizeof(*alloc), RTE_CACHE_LINE_SIZE);
	if (alloc == NULL) {
		RIO_LOG(ERR, "mport %s: out of memory", conf->name);
		ret = -ENOMEM;
		goto fail;
	}
	mport = &alloc->mport;
	mport->lib = &alloc->state;
	strlcpy(mport->name, conf->name, sizeof(mport->name));
	mport->ops = conf->ops;
	mport->priv = conf->priv;
	mport->devid_size = conf->devid_size;
	mport->host_destid = conf->host_destid;
	mport->port_index = conf->port_index;
	mport->inb_inplace_max = conf->inb_inplace_max;
	rte_spinlock_init(&mport->lib->config_lock);
	rio_mport_res_init(mport);
	rio_mport_mem_init(mport);

	/* The driver is usable now: find the local LP-Serial block. */
	efptr = rio_local_physefb(mport, &rmap);
	if (efptr < 0) {
		RIO_LOG(ERR, "mport %s: extended feature walk failed: %s",
			conf->name, strerror(-efptr));
		ret = efptr;
		goto fail;
	}
	if (efptr == 0) {
		RIO_LOG(ERR, "mport %s: no LP-Serial block in the local extended feature list "
			"(PEF EXT_FEATURES bit, ASM_INFO pointer)", conf->name);
		ret = -ENODEV;
		goto fail;
	}
	mport->phys_efptr = efptr;
	mport->phys_rmap = rmap;

	rte_spinlock_lock(&rio_registry.lock);
	if (rio_registry_lookup(conf->name) != NULL) {
		ret = -EEXIST;
	} else {
		id = rio_registry_free_slot();
		if (id < 0) {
			ret = -ENOSPC;
		} else {
			mport->id = id;
			rio_registry.slots[id] = mport;
			rio_registry.count++;
			ret = 0;
		}
	}
	rte_spinlock_unlock(&rio_registry.lock);
	if (ret < 0) {
		RIO_LOG(ERR, "mport %s: %s", conf->name, ret == -EEXIST ?
			"name already registered" : "too many mports");
		goto fail;
	}

	RIO_LOG(DEBUG, "mport %s registered as %u (LP-Serial at 0x%x, map %u)",
		mport->name, mport->id, mport->phys_efptr, mport->phys_rmap);
	return mport;

fail:
	rte_free(mport);
	rte_errno = -ret;
	return NULL;
}

/* Caller holds rio_registry.lock. */
static bool
rio_registry_holds(const struct rte_rio_mport *mport)
{
	return mport->id < RTE_RIO_MAX_MPORTS && rio_registry.slots[mport->id] == mport;
}

int
rte_rio_mport_unregister(struct rte_rio_mport *mport)
{
	bool registered;

	if (mport == NULL)
		return -EINVAL;

	rte_spinlock_lock(&rio_registry.lock);
	registered = rio_registry_holds(mport) || mport->lib->hidden;
	rte_spinlock_unlock(&rio_registry.lock);
	if (!registered) {
		RIO_LOG(ERR, "mport %p is not registered", (void *)mport);
		return -EINVAL;
	}

	/*
	 * Devices go first (REMOVE events), while the mport is still fully
	 * usable and findable: their users may close mailboxes through it.
	 */
	rte_rio_mport_scan_cancel(mport);
	rte_rio_mport_devices_release(mport);

	rte_spinlock_lock(&rio_registry.lock);
	if (rio_registry_holds(mport)) {
		rio_registry.slots[mport->id] = NULL;
		rio_registry.count--;
	}
	rte_spinlock_unlock(&rio_registry.lock);

	rio_mport_mem_release(mport);
	rio_mport_res_release(mport);
	RIO_LOG(DEBUG, "mport %s unregistered", mport->name);
	rte_free(mport);
	return 0;
}

int
rte_rio_mport_hide(struct rte_rio_mport *mport)
{
	int ret = -EINVAL;

	if (mport == NULL)
		return -EINVAL;
	rte_spinlock_lock(&rio_registry.lock);
	if (!mport->lib->hidden && rio_registry_holds(mport)) {
		rio_registry.slots[mport->id] = NULL;
		rio_registry.count--;
		mport->lib->hidden = true;
		ret = 0;
	}
	rte_spinlock_unlock(&rio_registry.lock);
	if (ret == 0)
		RIO_LOG(DEBUG, "mport %s hidden", mport->name);
	return ret;
}

uint16_t
rte_rio_mport_count(void)
{
	uint16_t count;

	rte_spinlock_lock(&rio_registry.lock);
	count = rio_registry.count;
	rte_spinlock_unlock(&rio_registry.lock);
	return count;
}

struct rte_rio_mport *
rte_rio_mport_get(uint16_t id)
{
	struct rte_rio_mport *mport = NULL;

	if (id < RTE_RIO_MAX_MPORTS) {
		rte_spinlock_lock(&rio_registry.lock);
		mport = rio_registry.slots[id];
		rte_spinlock_unlock(&rio_registry.lock);
	}
	if (mport == NULL)
		rte_errno = ENODEV;
	return mport;
}

struct rte_rio_mport *
rte_rio_mport_find(const char *name)
{
	struct rte_rio_mport *mport = NULL;

	if (name != NULL) {
		rte_spinlock_lock(&rio_registry.lock);
		mport = rio_registry_lookup(name);
		rte_spinlock_unlock(&rio_registry.lock);
	}
	if (mport == NULL)
		rte_errno = ENODEV;
	return mport;
}

const char *
rte_rio_mport_name(const struct rte_rio_mport *mport)
{
	return mport != NULL ? mport->name : NULL;
}

int
rte_rio_mport_destid(struct rte_rio_mport *mport)
{
	uint32_t did;
	int ret;

	ret = rte_rio_local_read_config_32(mport, RTE_RIO_DID_CSR, &did);
	if (ret < 0)
		return ret;
	return RTE_RIO_GET_DID(mport->devid_size, did);
}

int
rte_rio_mport_info_get(struct rte_rio_mport *mport, struct rte_rio_mport_info *info)
{
	uint32_t sts;
	int destid;

	if (mport == NULL || info == NULL)
		return -EINVAL;

	memset(info, 0, sizeof(*info));
	strlcpy(info->name, mport->name, sizeof(info->name));
	info->id = mport->id;
	info->devid_size = mport->devid_size;
	info->host_destid = mport->host_destid;
	info->phys_efptr = mport->phys_efptr;
	info->phys_rmap = mport->phys_rmap;
	info->port_index = mport->port_index;
	info->inb_inplace_max = mport->inb_inplace_max;
	info->maint_count = rte_rio_mport_maint_count(mport);

	/* Live state: a failing local read leaves the field at 0/false. */
	destid = rte_rio_mport_destid(mport);
	if (destid >= 0)
		info->destid = destid;
	if (rte_rio_local_read_config_32(mport, mport->phys_efptr +
			RTE_RIO_PORT_N_ERR_STS_CSR(mport->port_index, mport->phys_rmap),
			&sts) == 0)
		info->link_up = (sts & RTE_RIO_PORT_N_ERR_STS_PORT_OK) != 0;
	return 0;
}

uint64_t
rte_rio_mport_maint_count(const struct rte_rio_mport *mport)
{
	return mport != NULL ? rio_counter_load(&mport->lib->maint_count) : 0;
}

void
rte_rio_mport_maint_count_reset(struct rte_rio_mport *mport)
{
	if (mport != NULL)
		rio_counter_store(&mport->lib->maint_count, 0);
}
