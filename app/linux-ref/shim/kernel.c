/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * Run-time part of the kernel-API shim (see lr_kernel.h): module
 * parameters, initcalls, printk, memory, time, timers, work, resources,
 * the device model (buses, drivers, classes, subsystem and class
 * interfaces), reboot notifiers, a minimal netdev/skb layer, and a PCI
 * layer (functions, drivers, MMIO, coherent DMA in DPDK memory, INTx), and
 * the dmaengine registry of private slave channels (<linux/dmaengine.h>).
 */

#include <sys/mman.h>
#include <time.h>

/* lr_kernel.h is force-included. */

#include <linux/dmaengine.h>

#include "../lr_bridge.h"

/* ---------------------------------------------------------------- params */

static struct lr_param *lr_params;

void
lr_param_register(struct lr_param *p)
{
	p->next = lr_params;
	lr_params = p;
}

static int
lr_parse_int(const char *s, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno != 0 || end == s || *end != '\0' || v < INT_MIN || v > INT_MAX)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

int
lr_param_set(const char *name, const char *value)
{
	struct lr_param *p;
	char buf[256];
	char *tok, *save;
	unsigned int n;
	int v;

	for (p = lr_params; p != NULL; p = p->next)
		if (strcmp(p->name, name) == 0)
			break;
	if (p == NULL)
		return -ENOENT;
	switch (p->type) {
	case LR_PARAM_BOOL:
		if (strcmp(value, "1") == 0 || strcmp(value, "y") == 0 ||
		    strcmp(value, "Y") == 0)
			*(bool *)p->var = true;
		else if (strcmp(value, "0") == 0 || strcmp(value, "n") == 0 ||
			 strcmp(value, "N") == 0)
			*(bool *)p->var = false;
		else
			return -EINVAL;
		return 0;
	case LR_PARAM_INT:
		if (lr_parse_int(value, &v) < 0)
			return -EINVAL;
		*(int *)p->var = v;
		return 0;
	case LR_PARAM_UINT:
		if (lr_parse_int(value, &v) < 0 || v < 0)
			return -EINVAL;
		*(unsigned int *)p->var = (unsigned int)v;
		return 0;
	case LR_PARAM_BYTE:
		if (lr_parse_int(value, &v) < 0 || v < 0 || v > UCHAR_MAX)
			return -EINVAL;
		*(unsigned char *)p->var = (unsigned char)v;
		return 0;
	case LR_PARAM_INT_ARRAY:
		if (strlen(value) >= sizeof(buf))
			return -EINVAL;
		strcpy(buf, value);
		n = 0;
		for (tok = strtok_r(buf, ",", &save); tok != NULL;
		     tok = strtok_r(NULL, ",", &save)) {
			if (n >= p->max || lr_parse_int(tok, &v) < 0)
				return -EINVAL;
			((int *)p->var)[n++] = v;
		}
		if (p->nump != NULL)
			*p->nump = (int)n;
		return 0;
	}
	return -EINVAL;
}

/* ---------------------------------------------------------------- initcalls */

#define LR_MAX_INITCALLS 64

static struct {
	int level;
	initcall_t fn;
	const char *name;
} lr_initcalls[LR_MAX_INITCALLS];
static unsigned int lr_nb_initcalls;
static int lr_levels_done = -1;

void
lr_initcall_register(int level, initcall_t fn, const char *name)
{
	if (lr_nb_initcalls == LR_MAX_INITCALLS)
		abort();
	lr_initcalls[lr_nb_initcalls].level = level;
	lr_initcalls[lr_nb_initcalls].fn = fn;
	lr_initcalls[lr_nb_initcalls].name = name;
	lr_nb_initcalls++;
}

int
lr_kernel_init_upto(int max_level)
{
	unsigned int i;
	int level, ret;

	for (level = lr_levels_done + 1; level <= max_level; level++) {
		lr_levels_done = level;
		for (i = 0; i < lr_nb_initcalls; i++) {
			if (lr_initcalls[i].level != level)
				continue;
			ret = lr_initcalls[i].fn();
			if (ret != 0) {
				printk(KERN_ERR "initcall %s failed: %d\n",
				       lr_initcalls[i].name, ret);
				return ret;
			}
		}
	}
	return 0;
}

/* ---------------------------------------------------------------- printk */

static int lr_loglevel = 6;
static unsigned int lr_warnings;

void
lr_kernel_set_loglevel(int level)
{
	lr_loglevel = level;
}

unsigned int
lr_kernel_warnings(void)
{
	return lr_warnings;
}

int
printk(const char *fmt, ...)
{
	static bool line_open;
	int level = 4;
	bool cont = false;
	va_list ap;
	int ret;

	if (fmt[0] == KERN_SOH[0] && fmt[1] != '\0') {
		if (fmt[1] == 'c')
			cont = true;
		else
			level = fmt[1] - '0';
		fmt += 2;
	}
	if (level > lr_loglevel)
		return 0;
	if (!cont || !line_open)
		fputs("[linux] ", stderr);
	va_start(ap, fmt);
	ret = vfprintf(stderr, fmt, ap);
	va_end(ap);
	line_open = fmt[0] != '\0' && fmt[strlen(fmt) - 1] != '\n';
	return ret;
}

void
lr_warn_on(const char *file, int line)
{
	lr_warnings++;
	fprintf(stderr, "[linux] WARNING at %s:%d\n", file, line);
}

ssize_t
strscpy(char *dst, const char *src, size_t count)
{
	size_t len;

	if (count == 0)
		return -E2BIG;
	len = strnlen(src, count);
	if (len == count) {
		memcpy(dst, src, count - 1);
		dst[count - 1] = '\0';
		return -E2BIG;
	}
	memcpy(dst, src, len + 1);
	return (ssize_t)len;
}

/* ---------------------------------------------------------------- bitops */

unsigned long
find_next_bit(const unsigned long *addr, unsigned long size, unsigned long off)
{
	for (; off < size; off++)
		if (test_bit((long)off, addr))
			return off;
	return size;
}

unsigned long
find_next_zero_bit(const unsigned long *addr, unsigned long size, unsigned long off)
{
	for (; off < size; off++)
		if (!test_bit((long)off, addr))
			return off;
	return size;
}

/* ---------------------------------------------------------------- memory */

void *
kmalloc(size_t size, gfp_t flags)
{
	return (flags & __GFP_ZERO) ? calloc(1, size) : malloc(size);
}

void *
kzalloc(size_t size, gfp_t flags)
{
	(void)flags;
	return calloc(1, size);
}

void *
kcalloc(size_t n, size_t size, gfp_t flags)
{
	(void)flags;
	return calloc(n, size);
}

void
kfree(const void *p)
{
	free((void *)(uintptr_t)p);
}

int
get_order(unsigned long size)
{
	int order = 0;

	size = (size - 1) >> PAGE_SHIFT;
	while (size != 0) {
		order++;
		size >>= 1;
	}
	return order;
}

unsigned long
__get_free_pages(gfp_t flags, unsigned int order)
{
	void *p = NULL;

	if (posix_memalign(&p, PAGE_SIZE, PAGE_SIZE << order) != 0)
		return 0;
	if (flags & __GFP_ZERO)
		memset(p, 0, PAGE_SIZE << order);
	return (unsigned long)p;
}

void
free_pages(unsigned long addr, unsigned int order)
{
	(void)order;
	free((void *)addr);
}

/* ---------------------------------------------------------------- time */

static uint64_t
lr_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

unsigned long
lr_jiffies(void)
{
	/* Start away from 0, as the kernel does, so wrap-safe compares matter. */
	return (unsigned long)(lr_now_ns() / 1000000ull) + 300000ul;
}

static void
lr_sleep_ns(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000ull),
		.tv_nsec = (long)(ns % 1000000000ull),
	};

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

void
ndelay(unsigned long ns)
{
	lr_sleep_ns(ns);
}

void
udelay(unsigned long us)
{
	lr_sleep_ns((uint64_t)us * 1000u);
}

void
mdelay(unsigned long ms)
{
	lr_sleep_ns((uint64_t)ms * 1000000u);
}

void
msleep(unsigned int ms)
{
	lr_sleep_ns((uint64_t)ms * 1000000u);
}

void
usleep_range(unsigned long min_us, unsigned long max_us)
{
	(void)max_us;
	udelay(min_us);
}

/* ---------------------------------------------------------------- timers */

static LIST_HEAD(lr_timers);

void
timer_setup(struct timer_list *t, void (*fn)(struct timer_list *), unsigned int flags)
{
	(void)flags;
	INIT_LIST_HEAD(&t->entry);
	t->function = fn;
	t->pending = false;
}

int
mod_timer(struct timer_list *t, unsigned long expires)
{
	int was = t->pending;

	t->expires = expires;
	if (!t->pending) {
		list_add_tail(&t->entry, &lr_timers);
		t->pending = true;
	}
	return was;
}

void
add_timer(struct timer_list *t)
{
	mod_timer(t, t->expires);
}

int
del_timer(struct timer_list *t)
{
	if (!t->pending)
		return 0;
	list_del(&t->entry);
	t->pending = false;
	return 1;
}

static void
lr_run_timers(void)
{
	struct timer_list *t, *n;
	unsigned long now = jiffies;

	list_for_each_entry_safe(t, n, &lr_timers, entry) {
		if (time_before(now, t->expires))
			continue;
		del_timer(t);
		t->function(t);
		/* The callback may have changed the list: start again next poll. */
		break;
	}
}

/* ---------------------------------------------------------------- work */

struct workqueue_struct {
	char name[32];
};

static LIST_HEAD(lr_work_pending);

struct workqueue_struct *
alloc_workqueue(const char *fmt, unsigned int flags, int max_active, ...)
{
	struct workqueue_struct *wq = calloc(1, sizeof(*wq));

	(void)flags;
	(void)max_active;
	if (wq != NULL)
		snprintf(wq->name, sizeof(wq->name), "%s", fmt);
	return wq;
}

static void
lr_run_work(void)
{
	struct work_struct *w;

	while (!list_empty(&lr_work_pending)) {
		w = list_first_entry(&lr_work_pending, struct work_struct, entry);
		list_del_init(&w->entry);
		w->pending = false;
		w->func(w);
	}
}

void
destroy_workqueue(struct workqueue_struct *wq)
{
	lr_run_work();
	free(wq);
}

bool
queue_work(struct workqueue_struct *wq, struct work_struct *w)
{
	(void)wq;
	if (w->pending)
		return false;
	w->pending = true;
	list_add_tail(&w->entry, &lr_work_pending);
	return true;
}

bool
schedule_work(struct work_struct *w)
{
	return queue_work(NULL, w);
}

void
flush_workqueue(struct workqueue_struct *wq)
{
	(void)wq;
	lr_run_work();
}

bool
flush_work(struct work_struct *w)
{
	bool was = w->pending;

	lr_run_work();
	return was;
}

bool
cancel_work_sync(struct work_struct *w)
{
	if (!w->pending)
		return false;
	list_del_init(&w->entry);
	w->pending = false;
	return true;
}

void
lr_kernel_poll(void)
{
	lr_run_timers();
	lr_run_work();
}

/* ---------------------------------------------------------------- resources */

int
request_resource(struct resource *root, struct resource *n)
{
	struct resource *c;

	if (n->start > n->end || n->start < root->start || n->end > root->end)
		return -EBUSY;
	for (c = root->child; c != NULL; c = c->sibling)
		if (!(n->end < c->start || n->start > c->end))
			return -EBUSY;
	n->parent = root;
	n->sibling = root->child;
	n->child = NULL;
	root->child = n;
	return 0;
}

int
release_resource(struct resource *old)
{
	struct resource **pp;

	if (old->parent == NULL)
		return -EINVAL;
	for (pp = &old->parent->child; *pp != NULL; pp = &(*pp)->sibling) {
		if (*pp == old) {
			*pp = old->sibling;
			old->parent = NULL;
			old->sibling = NULL;
			return 0;
		}
	}
	return -EINVAL;
}

/* ---------------------------------------------------------------- device model */

int
add_uevent_var(struct kobj_uevent_env *env, const char *fmt, ...)
{
	(void)fmt;
	env->envp_idx++;
	return 0;
}

int
device_create_file(struct device *dev, const struct device_attribute *attr)
{
	(void)dev;
	(void)attr;
	return 0;
}

void
device_remove_file(struct device *dev, const struct device_attribute *attr)
{
	(void)dev;
	(void)attr;
}

int
sysfs_emit(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, PAGE_SIZE, fmt, ap);
	va_end(ap);
	return n;
}

const char *
dev_name(const struct device *dev)
{
	if (dev == NULL)
		return "(null)";
	if (dev->name != NULL)
		return dev->name;
	return dev->init_name != NULL ? dev->init_name : "(unnamed)";
}

const char *
dev_driver_string(const struct device *dev)
{
	return dev->driver != NULL ? dev->driver->name : dev->bus != NULL ? dev->bus->name : "";
}

int
dev_set_name(struct device *dev, const char *fmt, ...)
{
	va_list ap;
	char *name;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&name, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	free(dev->name);
	dev->name = name;
	dev->kobj.name = name;
	return 0;
}

void
device_initialize(struct device *dev)
{
	dev->refcount = 1;
	dev->registered = false;
	INIT_LIST_HEAD(&dev->lr_bus_node);
	INIT_LIST_HEAD(&dev->lr_children);
	INIT_LIST_HEAD(&dev->lr_sibling);
}

static void
lr_bus_probe_device(struct device *dev)
{
	struct bus_type *bus = dev->bus;
	struct device_driver *drv;
	int ret;

	if (dev->driver != NULL)
		return;
	list_for_each_entry(drv, &bus->lr_drivers, lr_node) {
		if (bus->match != NULL && !bus->match(dev, drv))
			continue;
		dev->driver = drv;
		if (bus->probe != NULL)
			ret = bus->probe(dev);
		else if (drv->probe != NULL)
			ret = drv->probe(dev);
		else
			ret = 0;
		if (ret == 0)
			return;
		dev->driver = NULL;
	}
}

int
device_add(struct device *dev)
{
	struct subsys_interface *sif;
	struct class_interface *cif;

	if (dev->name == NULL && dev->init_name != NULL)
		dev_set_name(dev, "%s", dev->init_name);
	dev->registered = true;
	if (dev->parent != NULL) {
		get_device(dev->parent);
		list_add_tail(&dev->lr_sibling, &dev->parent->lr_children);
	}
	if (dev->bus != NULL) {
		list_add_tail(&dev->lr_bus_node, &dev->bus->lr_devices);
		lr_bus_probe_device(dev);
		list_for_each_entry(sif, &dev->bus->lr_interfaces, node)
			if (sif->add_dev != NULL)
				sif->add_dev(dev, sif);
	} else if (dev->class != NULL) {
		list_add_tail(&dev->lr_bus_node, &dev->class->lr_devices);
		list_for_each_entry(cif, &dev->class->lr_interfaces, node)
			if (cif->add_dev != NULL)
				cif->add_dev(dev, cif);
	}
	return 0;
}

int
device_register(struct device *dev)
{
	device_initialize(dev);
	return device_add(dev);
}

void
device_del(struct device *dev)
{
	struct subsys_interface *sif;
	struct class_interface *cif;
	struct device *parent = dev->parent;

	if (!dev->registered)
		return;
	if (dev->bus != NULL) {
		list_for_each_entry(sif, &dev->bus->lr_interfaces, node)
			if (sif->remove_dev != NULL)
				sif->remove_dev(dev, sif);
		if (dev->driver != NULL) {
			if (dev->bus->remove != NULL)
				dev->bus->remove(dev);
			else if (dev->driver->remove != NULL)
				dev->driver->remove(dev);
			dev->driver = NULL;
		}
	} else if (dev->class != NULL) {
		list_for_each_entry(cif, &dev->class->lr_interfaces, node)
			if (cif->remove_dev != NULL)
				cif->remove_dev(dev, cif);
	}
	list_del_init(&dev->lr_bus_node);
	if (parent != NULL) {
		list_del_init(&dev->lr_sibling);
		put_device(parent);
	}
	dev->registered = false;
}

void
device_unregister(struct device *dev)
{
	device_del(dev);
	put_device(dev);
}

struct device *
get_device(struct device *dev)
{
	if (dev != NULL)
		dev->refcount++;
	return dev;
}

void
put_device(struct device *dev)
{
	char *name;

	if (dev == NULL || --dev->refcount > 0)
		return;
	name = dev->name;
	dev->name = NULL;
	/* The release callback frees the structure that holds dev. */
	if (dev->release != NULL)
		dev->release(dev);
	free(name);
}

int
device_for_each_child(struct device *parent, void *data,
		      int (*fn)(struct device *dev, void *data))
{
	struct device *d, *n;
	int ret;

	list_for_each_entry_safe(d, n, &parent->lr_children, lr_sibling) {
		ret = fn(d, data);
		if (ret != 0)
			return ret;
	}
	return 0;
}

int
bus_register(struct bus_type *bus)
{
	INIT_LIST_HEAD(&bus->lr_devices);
	INIT_LIST_HEAD(&bus->lr_drivers);
	INIT_LIST_HEAD(&bus->lr_interfaces);
	bus->lr_registered = true;
	return 0;
}

void
bus_unregister(struct bus_type *bus)
{
	bus->lr_registered = false;
}

int
bus_for_each_dev(struct bus_type *bus, struct device *start, void *data,
		 int (*fn)(struct device *dev, void *data))
{
	struct device *d, *n;
	bool started = start == NULL;
	int ret;

	if (!bus->lr_registered)
		return -EINVAL;
	list_for_each_entry_safe(d, n, &bus->lr_devices, lr_bus_node) {
		if (!started) {
			started = d == start;
			continue;
		}
		ret = fn(d, data);
		if (ret != 0)
			return ret;
	}
	return 0;
}

int
driver_register(struct device_driver *drv)
{
	struct bus_type *bus = drv->bus;
	struct device *dev;

	if (bus == NULL || !bus->lr_registered)
		return -EINVAL;
	list_add_tail(&drv->lr_node, &bus->lr_drivers);
	list_for_each_entry(dev, &bus->lr_devices, lr_bus_node) {
		if (dev->driver != NULL)
			continue;
		if (bus->match != NULL && !bus->match(dev, drv))
			continue;
		dev->driver = drv;
		if ((bus->probe != NULL ? bus->probe(dev) :
		     drv->probe != NULL ? drv->probe(dev) : 0) != 0)
			dev->driver = NULL;
	}
	return 0;
}

void
driver_unregister(struct device_driver *drv)
{
	struct bus_type *bus = drv->bus;
	struct device *dev;

	list_for_each_entry(dev, &bus->lr_devices, lr_bus_node) {
		if (dev->driver != drv)
			continue;
		if (bus->remove != NULL)
			bus->remove(dev);
		else if (drv->remove != NULL)
			drv->remove(dev);
		dev->driver = NULL;
	}
	list_del(&drv->lr_node);
}

int
class_register(struct class *cls)
{
	INIT_LIST_HEAD(&cls->lr_devices);
	INIT_LIST_HEAD(&cls->lr_interfaces);
	cls->lr_registered = true;
	return 0;
}

void
class_unregister(struct class *cls)
{
	cls->lr_registered = false;
}

int
class_interface_register(struct class_interface *intf)
{
	struct device *dev;

	if (intf->class == NULL || !intf->class->lr_registered)
		return -ENODEV;
	list_add_tail(&intf->node, &intf->class->lr_interfaces);
	if (intf->add_dev != NULL)
		list_for_each_entry(dev, &intf->class->lr_devices, lr_bus_node)
			intf->add_dev(dev, intf);
	return 0;
}

void
class_interface_unregister(struct class_interface *intf)
{
	struct device *dev;

	if (intf->remove_dev != NULL)
		list_for_each_entry(dev, &intf->class->lr_devices, lr_bus_node)
			intf->remove_dev(dev, intf);
	list_del(&intf->node);
}

int
subsys_interface_register(struct subsys_interface *sif)
{
	struct device *dev, *n;

	if (sif->subsys == NULL || !sif->subsys->lr_registered)
		return -ENODEV;
	list_add_tail(&sif->node, &sif->subsys->lr_interfaces);
	if (sif->add_dev != NULL)
		list_for_each_entry_safe(dev, n, &sif->subsys->lr_devices, lr_bus_node)
			sif->add_dev(dev, sif);
	return 0;
}

void
subsys_interface_unregister(struct subsys_interface *sif)
{
	struct device *dev, *n;

	if (sif->remove_dev != NULL)
		list_for_each_entry_safe(dev, n, &sif->subsys->lr_devices, lr_bus_node)
			sif->remove_dev(dev, sif);
	list_del(&sif->node);
}

/* ---------------------------------------------------------------- notifiers */

static struct notifier_block *lr_reboot_chain;

int
register_reboot_notifier(struct notifier_block *nb)
{
	nb->next = lr_reboot_chain;
	lr_reboot_chain = nb;
	return 0;
}

int
unregister_reboot_notifier(struct notifier_block *nb)
{
	struct notifier_block **pp;

	for (pp = &lr_reboot_chain; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == nb) {
			*pp = nb->next;
			return 0;
		}
	}
	return -ENOENT;
}

void
lr_kernel_reboot(void)
{
	struct notifier_block *nb;

	for (nb = lr_reboot_chain; nb != NULL; nb = nb->next)
		nb->notifier_call(nb, 1 /* SYS_RESTART */, NULL);
}

/* ---------------------------------------------------------------- netdev */

#define LR_MAX_NETDEVS 8
#define LR_SKB_HEADROOM 64

static struct net_device *lr_netdevs[LR_MAX_NETDEVS];
static void (*lr_rx_hook)(struct net_device *dev, const u8 *frame, unsigned int len,
			  void *arg);
static void *lr_rx_hook_arg;

struct net_device *
alloc_etherdev(int sizeof_priv)
{
	struct net_device *dev;

	dev = calloc(1, sizeof(*dev) + (size_t)sizeof_priv);
	if (dev == NULL)
		return NULL;
	strcpy(dev->name, "eth%d");
	dev->mtu = ETH_DATA_LEN;
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = ETH_DATA_LEN;
	dev->dev_addr = dev->lr_addr;
	dev->lr_queue_stopped = true;
	return dev;
}

void
free_netdev(struct net_device *dev)
{
	free(dev);
}

int
register_netdev(struct net_device *dev)
{
	unsigned int i;

	for (i = 0; i < LR_MAX_NETDEVS; i++) {
		if (lr_netdevs[i] == NULL) {
			if (strstr(dev->name, "%d") != NULL)
				snprintf(dev->name, sizeof(dev->name), "eth%u", i);
			lr_netdevs[i] = dev;
			dev->lr_registered = true;
			return 0;
		}
	}
	return -ENFILE;
}

void
unregister_netdev(struct net_device *dev)
{
	unsigned int i;

	if (dev->lr_up)
		dev_close(dev);
	for (i = 0; i < LR_MAX_NETDEVS; i++)
		if (lr_netdevs[i] == dev)
			lr_netdevs[i] = NULL;
	dev->lr_registered = false;
}

struct net_device *
lr_netdev_get(unsigned int index)
{
	unsigned int i, n = 0;

	for (i = 0; i < LR_MAX_NETDEVS; i++)
		if (lr_netdevs[i] != NULL && n++ == index)
			return lr_netdevs[i];
	return NULL;
}

int
dev_open(struct net_device *dev, void *extack)
{
	int ret = 0;

	(void)extack;
	if (dev->lr_up)
		return 0;
	if (dev->netdev_ops->ndo_open != NULL)
		ret = dev->netdev_ops->ndo_open(dev);
	if (ret == 0)
		dev->lr_up = true;
	return ret;
}

int
dev_close(struct net_device *dev)
{
	if (!dev->lr_up)
		return 0;
	dev->lr_up = false;
	if (dev->netdev_ops->ndo_stop != NULL)
		return dev->netdev_ops->ndo_stop(dev);
	return 0;
}

void
eth_hw_addr_set(struct net_device *dev, const u8 *addr)
{
	memcpy(dev->lr_addr, addr, ETH_ALEN);
}

int
eth_validate_addr(struct net_device *dev)
{
	return is_valid_ether_addr(dev->dev_addr) ? 0 : -EADDRNOTAVAIL;
}

int
eth_mac_addr(struct net_device *dev, void *p)
{
	/* struct sockaddr: a 2-byte family, then the address. */
	const u8 *addr = (const u8 *)p + 2;

	if (!is_valid_ether_addr(addr))
		return -EADDRNOTAVAIL;
	eth_hw_addr_set(dev, addr);
	return 0;
}

u32
ethtool_op_get_link(struct net_device *dev)
{
	return netif_carrier_ok(dev);
}

struct sk_buff *
dev_alloc_skb(unsigned int length)
{
	struct sk_buff *skb = calloc(1, sizeof(*skb));

	if (skb == NULL)
		return NULL;
	skb->truesize = LR_SKB_HEADROOM + length;
	skb->head = malloc(skb->truesize);
	if (skb->head == NULL) {
		free(skb);
		return NULL;
	}
	skb->data = skb->head + LR_SKB_HEADROOM;
	refcount_set(&skb->users, 1);
	return skb;
}

void
kfree_skb(struct sk_buff *skb)
{
	if (skb == NULL || !refcount_dec_and_test(&skb->users))
		return;
	free(skb->head);
	free(skb);
}

void *
skb_put(struct sk_buff *skb, unsigned int len)
{
	void *tail = skb->data + skb->len;

	if ((size_t)(skb->data - skb->head) + skb->len + len > skb->truesize)
		abort();	/* skb_over_panic() */
	skb->len += len;
	return tail;
}

void *
skb_pull(struct sk_buff *skb, unsigned int len)
{
	if (len > skb->len)
		return NULL;
	skb->len -= len;
	skb->data += len;
	return skb->data;
}

__be16
eth_type_trans(struct sk_buff *skb, struct net_device *dev)
{
	const struct ethhdr *eth = (const struct ethhdr *)skb->data;

	skb->dev = dev;
	skb->mac_header = skb->data;
	skb_pull(skb, ETH_HLEN);
	if (is_multicast_ether_addr(eth->h_dest))
		skb->pkt_type = is_broadcast_ether_addr(eth->h_dest) ?
			PACKET_BROADCAST : PACKET_MULTICAST;
	else if (memcmp(eth->h_dest, dev->dev_addr, ETH_ALEN) != 0)
		skb->pkt_type = PACKET_OTHERHOST;
	else
		skb->pkt_type = PACKET_HOST;
	if (ntohs(eth->h_proto) >= ETH_P_802_3_MIN)
		return eth->h_proto;
	return htons(ETH_P_802_2);
}

void
lr_netif_rx_hook_set(void (*hook)(struct net_device *dev, const u8 *frame, unsigned int len,
				  void *arg), void *arg)
{
	lr_rx_hook = hook;
	lr_rx_hook_arg = arg;
}

int
__netif_rx(struct sk_buff *skb)
{
	if (lr_rx_hook != NULL && skb->mac_header != NULL)
		lr_rx_hook(skb->dev, skb->mac_header,
			   skb->len + (unsigned int)(skb->data - skb->mac_header),
			   lr_rx_hook_arg);
	kfree_skb(skb);
	return NET_RX_SUCCESS;
}

int
netif_rx(struct sk_buff *skb)
{
	return __netif_rx(skb);
}

int
lr_netdev_xmit(struct net_device *dev, const void *frame, unsigned int len)
{
	struct sk_buff *skb;
	netdev_tx_t ret;

	if (!dev->lr_up || netif_queue_stopped(dev))
		return -EBUSY;
	skb = dev_alloc_skb(len);
	if (skb == NULL)
		return -ENOMEM;
	memcpy(skb_put(skb, len), frame, len);
	skb->dev = dev;
	ret = dev->netdev_ops->ndo_start_xmit(skb, dev);
	if (ret != NETDEV_TX_OK) {
		kfree_skb(skb);
		return -EBUSY;
	}
	return 0;
}

/* ---------------------------------------------------------------- kfifo */

int
lr_kfifo_alloc(struct kfifo *f, unsigned int size)
{
	f->size = (unsigned int)roundup_pow_of_two(size);
	f->in = f->out = 0;
	f->buf = malloc(f->size);
	return f->buf != NULL ? 0 : -ENOMEM;
}

void
lr_kfifo_free(struct kfifo *f)
{
	free(f->buf);
	f->buf = NULL;
	f->size = 0;
}

unsigned int
lr_kfifo_in(struct kfifo *f, const void *buf, unsigned int len)
{
	unsigned int i;

	len = min(len, (unsigned int)kfifo_avail(f));
	for (i = 0; i < len; i++)
		f->buf[(f->in + i) & (f->size - 1)] = ((const unsigned char *)buf)[i];
	f->in += len;
	return len;
}

unsigned int
lr_kfifo_out(struct kfifo *f, void *buf, unsigned int len)
{
	unsigned int i;

	len = min(len, f->in - f->out);
	for (i = 0; i < len; i++)
		((unsigned char *)buf)[i] = f->buf[(f->out + i) & (f->size - 1)];
	f->out += len;
	return len;
}

/* ---------------------------------------------------------------- DMA */

int
dma_set_mask(struct device *dev, u64 mask)
{
	(void)dev;
	(void)mask;
	return 0;
}

int
dma_set_coherent_mask(struct device *dev, u64 mask)
{
	(void)dev;
	(void)mask;
	return 0;
}

void *
dma_alloc_coherent(struct device *dev, size_t size, dma_addr_t *handle, gfp_t gfp)
{
	uint64_t iova;
	void *va;

	(void)dev;
	(void)gfp;
	/*
	 * As the kernel's: aligned to the page order of the size (DMA-API.txt),
	 * which drivers rely on, e.g. tsi721's rio_map_inb_region() refuses a
	 * window whose local address is not aligned to its size.
	 */
	va = lrb_dma_alloc(size, PAGE_SIZE << get_order(size), &iova);
	if (va != NULL)
		*handle = iova;
	return va;
}

void
dma_free_coherent(struct device *dev, size_t size, void *va, dma_addr_t handle)
{
	(void)dev;
	(void)size;
	(void)handle;
	lrb_dma_free(va);
}

int
dma_map_sg(struct device *dev, struct scatterlist *sg, int nents, enum dma_data_direction dir)
{
	int i;

	(void)dev;
	(void)dir;
	for (i = 0; i < nents; i++) {
		if (lrb_dma_iova(sg[i].lr_virt, &sg[i].dma_address) < 0)
			return 0;
		sg[i].dma_length = sg[i].length;
	}
	return nents;
}

void
dma_unmap_sg(struct device *dev, struct scatterlist *sg, int nents, enum dma_data_direction dir)
{
	(void)dev;
	(void)sg;
	(void)nents;
	(void)dir;
}

/* ---------------------------------------------------------------- dmaengine */

/* As dmaengine's core: the registered DMA devices, whose channels clients request. */
static LIST_HEAD(lr_dma_devices);

/* How long dma_sync_wait() waits, as dmaengine's core (5 s). */
#define LR_DMA_SYNC_WAIT_MS 5000

int
dma_async_device_register(struct dma_device *device)
{
	struct dma_chan *chan;
	int id = 0;

	if (device == NULL || device->device_prep_slave_sg == NULL ||
	    device->device_tx_status == NULL || device->device_issue_pending == NULL)
		return -EINVAL;
	list_for_each_entry(chan, &device->channels, device_node) {
		chan->device = device;
		chan->chan_id = id++;
		chan->cookie = DMA_MIN_COOKIE - 1;
		chan->completed_cookie = DMA_MIN_COOKIE - 1;
		chan->client_count = 0;
	}
	device->chancnt = (unsigned int)id;
	list_add_tail(&device->global_node, &lr_dma_devices);
	return 0;
}

void
dma_async_device_unregister(struct dma_device *device)
{
	list_del(&device->global_node);
}

struct dma_chan *
__dma_request_channel(const dma_cap_mask_t *mask, dma_filter_fn fn, void *fn_param,
		      struct device_node *np)
{
	struct dma_device *device;
	struct dma_chan *chan;

	(void)np;
	list_for_each_entry(device, &lr_dma_devices, global_node) {
		if ((mask->bits[0] & ~device->cap_mask.bits[0]) != 0)
			continue;
		list_for_each_entry(chan, &device->channels, device_node) {
			if (chan->client_count != 0)
				continue;
			if (fn != NULL && !fn(chan, fn_param))
				continue;
			if (device->device_alloc_chan_resources != NULL &&
			    device->device_alloc_chan_resources(chan) < 0)
				continue;
			chan->client_count = 1;
			return chan;
		}
	}
	return NULL;
}

void
dma_release_channel(struct dma_chan *chan)
{
	if (chan == NULL || chan->client_count == 0)
		return;
	if (chan->device->device_free_chan_resources != NULL)
		chan->device->device_free_chan_resources(chan);
	chan->client_count = 0;
}

enum dma_status
dma_sync_wait(struct dma_chan *chan, dma_cookie_t cookie)
{
	uint64_t end = lrb_monotonic_ms() + LR_DMA_SYNC_WAIT_MS;
	enum dma_status status;

	dma_async_issue_pending(chan);
	do {
		status = dma_async_is_tx_complete(chan, cookie, NULL, NULL);
		if (status != DMA_IN_PROGRESS)
			return status;
		lr_kernel_poll();
	} while (lrb_monotonic_ms() < end);
	pr_err("dma_sync_wait: timeout\n");
	return DMA_ERROR;
}

/* ---------------------------------------------------------------- MMIO */

#define LR_MAX_MAPS 8

static struct lr_map {
	uintptr_t base;
	size_t len;
	const struct lr_pci_bar *bar;
	void *ctx;
} lr_maps[LR_MAX_MAPS];

static struct lr_map *
lr_map_find(const volatile void *addr, u32 *off)
{
	uintptr_t a = (uintptr_t)addr;
	unsigned int i;

	for (i = 0; i < LR_MAX_MAPS; i++) {
		if (lr_maps[i].len != 0 && a >= lr_maps[i].base && a - lr_maps[i].base < lr_maps[i].len) {
			*off = (u32)(a - lr_maps[i].base);
			return &lr_maps[i];
		}
	}
	/* An access outside every mapping is a driver bug: as a fault would, stop here. */
	fprintf(stderr, "[linux] MMIO access at %p outside every ioremapped BAR\n",
		(const void *)addr);
	abort();
}

u32
ioread32(const volatile void __iomem *addr)
{
	u32 off;
	struct lr_map *m = lr_map_find(addr, &off);

	return m->bar->read32(m->ctx, off);
}

void
iowrite32(u32 val, volatile void __iomem *addr)
{
	u32 off;
	struct lr_map *m = lr_map_find(addr, &off);

	m->bar->write32(m->ctx, off, val);
}

void
iowrite16be(u16 val, volatile void __iomem *addr)
{
	u32 off;
	struct lr_map *m = lr_map_find(addr, &off);

	if (m->bar->write16 == NULL) {
		fprintf(stderr, "[linux] 16-bit write to a BAR without 16-bit access\n");
		abort();
	}
	m->bar->write16(m->ctx, off, cpu_to_be16(val));
}

void
iounmap(volatile void __iomem *addr)
{
	unsigned int i;

	for (i = 0; i < LR_MAX_MAPS; i++) {
		if (lr_maps[i].len != 0 && lr_maps[i].base == (uintptr_t)addr) {
			munmap((void *)lr_maps[i].base, lr_maps[i].len);
			lr_maps[i].len = 0;
			return;
		}
	}
}

/* ---------------------------------------------------------------- interrupts */

#define LR_MAX_IRQS 8

static struct {
	unsigned int irq;
	irq_handler_t handler;
	void *dev_id;
} lr_irqs[LR_MAX_IRQS];

int
request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags, const char *name,
	    void *dev_id)
{
	unsigned int i;

	(void)flags;
	(void)name;
	for (i = 0; i < LR_MAX_IRQS; i++) {
		if (lr_irqs[i].handler == NULL) {
			lr_irqs[i].irq = irq;
			lr_irqs[i].handler = handler;
			lr_irqs[i].dev_id = dev_id;
			return 0;
		}
	}
	return -EBUSY;
}

const void *
free_irq(unsigned int irq, void *dev_id)
{
	unsigned int i;

	for (i = 0; i < LR_MAX_IRQS; i++) {
		if (lr_irqs[i].handler != NULL && lr_irqs[i].irq == irq &&
		    lr_irqs[i].dev_id == dev_id) {
			lr_irqs[i].handler = NULL;
			return NULL;
		}
	}
	WARN(1, "free_irq: irq %u was not requested\n", irq);
	return NULL;
}

/* ---------------------------------------------------------------- PCI */

#define LR_PCI_IRQ_BASE 16	/* a legacy INTx line, as the BIOS would route it */
#define LR_PCIE_CAP 0x40

static LIST_HEAD(lr_pci_devices);
static LIST_HEAD(lr_pci_drivers);

static const struct pci_device_id *
lr_pci_match(const struct pci_driver *drv, const struct pci_dev *pdev)
{
	const struct pci_device_id *id;

	for (id = drv->id_table; id->vendor != 0; id++)
		if ((id->vendor == PCI_ANY_ID || id->vendor == pdev->vendor) &&
		    (id->device == PCI_ANY_ID || id->device == pdev->device))
			return id;
	return NULL;
}

static void
lr_pci_probe(struct pci_dev *pdev, struct pci_driver *drv)
{
	const struct pci_device_id *id = lr_pci_match(drv, pdev);
	int ret;

	if (pdev->lr_driver != NULL || id == NULL)
		return;
	pdev->lr_driver = drv;
	pdev->dev.driver = &drv->driver;
	ret = drv->probe(pdev, id);
	if (ret != 0) {
		printk(KERN_ERR "%s: probe of %s failed: %d\n", drv->name, pci_name(pdev), ret);
		pdev->lr_driver = NULL;
		pdev->dev.driver = NULL;
	}
}

int
pci_register_driver(struct pci_driver *drv)
{
	struct pci_dev *pdev;

	drv->driver.name = drv->name;
	list_add_tail(&drv->lr_node, &lr_pci_drivers);
	list_for_each_entry(pdev, &lr_pci_devices, lr_node)
		lr_pci_probe(pdev, drv);
	return 0;
}

void
pci_unregister_driver(struct pci_driver *drv)
{
	struct pci_dev *pdev;

	list_for_each_entry(pdev, &lr_pci_devices, lr_node) {
		if (pdev->lr_driver != drv)
			continue;
		if (drv->remove != NULL)
			drv->remove(pdev);
		pdev->lr_driver = NULL;
		pdev->dev.driver = NULL;
	}
	list_del(&drv->lr_node);
}

int
lr_pci_add_device(struct pci_dev *pdev, const char *bdf, u16 vendor, u16 device,
		  const struct lr_pci_bar *bars, unsigned int nb_bars,
		  bool (*intx)(void *ctx), void *ctx)
{
	static unsigned int nb_devs;
	struct pci_driver *drv;
	resource_size_t start = 0xe0000000;	/* 32-bit memory space, as firmware assigns it */
	unsigned int i;

	if (nb_bars > PCI_STD_NUM_BARS)
		return -EINVAL;
	memset(pdev, 0, sizeof(*pdev));
	device_initialize(&pdev->dev);
	dev_set_name(&pdev->dev, "%s", bdf);
	pdev->vendor = vendor;
	pdev->device = device;
	pdev->irq = LR_PCI_IRQ_BASE + nb_devs++;
	pdev->lr_ctx = ctx;
	pdev->lr_intx = intx;
	for (i = 0; i < nb_bars; i++) {
		pdev->lr_bar[i] = bars[i];
		pdev->resource[i].start = start;
		pdev->resource[i].end = start + bars[i].len - 1;
		pdev->resource[i].flags = IORESOURCE_MEM;
		start += bars[i].len;
	}
	/* Configuration space: IDs, a capability list with one PCI Express capability. */
	memcpy(&pdev->lr_cfg[0], &vendor, 2);
	memcpy(&pdev->lr_cfg[2], &device, 2);
	pdev->lr_cfg[0x06] = 0x10;		/* status: capability list */
	pdev->lr_cfg[0x34] = LR_PCIE_CAP;
	pdev->lr_cfg[LR_PCIE_CAP] = 0x10;	/* PCI Express */
	list_add_tail(&pdev->lr_node, &lr_pci_devices);
	list_for_each_entry(drv, &lr_pci_drivers, lr_node)
		lr_pci_probe(pdev, drv);
	return 0;
}

void
lr_pci_remove_device(struct pci_dev *pdev)
{
	if (pdev->lr_driver != NULL && pdev->lr_driver->remove != NULL)
		pdev->lr_driver->remove(pdev);
	pdev->lr_driver = NULL;
	pdev->dev.driver = NULL;
	list_del(&pdev->lr_node);
}

unsigned int
lr_pci_poll_intx(void)
{
	struct pci_dev *pdev;
	unsigned int i, n = 0;

	list_for_each_entry(pdev, &lr_pci_devices, lr_node) {
		if (pdev->lr_intx == NULL || !pdev->lr_intx(pdev->lr_ctx))
			continue;
		/* Every handler on the (shared) line runs; each checks its own device. */
		for (i = 0; i < LR_MAX_IRQS; i++)
			if (lr_irqs[i].handler != NULL && lr_irqs[i].irq == pdev->irq &&
			    lr_irqs[i].handler((int)pdev->irq, lr_irqs[i].dev_id) == IRQ_HANDLED)
				n++;
	}
	return n;
}

int
pci_enable_device(struct pci_dev *pdev)
{
	pdev->lr_enabled = true;
	return 0;
}

void
pci_disable_device(struct pci_dev *pdev)
{
	pdev->lr_enabled = false;
}

int
pci_request_regions(struct pci_dev *pdev, const char *name)
{
	(void)name;
	if (pdev->lr_regions)
		return -EBUSY;
	pdev->lr_regions = true;
	return 0;
}

void
pci_release_regions(struct pci_dev *pdev)
{
	pdev->lr_regions = false;
}

void
pci_set_master(struct pci_dev *pdev)
{
	pdev->lr_master = true;
}

void
pci_clear_master(struct pci_dev *pdev)
{
	pdev->lr_master = false;
}

void __iomem *
pci_ioremap_bar(struct pci_dev *pdev, int bar)
{
	unsigned int i;
	void *base;

	if (bar < 0 || bar >= PCI_STD_NUM_BARS || pdev->lr_bar[bar].len == 0 ||
	    !pdev->lr_enabled)
		return NULL;
	for (i = 0; i < LR_MAX_MAPS && lr_maps[i].len != 0; i++)
		;
	if (i == LR_MAX_MAPS)
		return NULL;
	base = mmap(NULL, pdev->lr_bar[bar].len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
		    MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED)
		return NULL;
	lr_maps[i].base = (uintptr_t)base;
	lr_maps[i].bar = &pdev->lr_bar[bar];
	lr_maps[i].ctx = pdev->lr_ctx;
	lr_maps[i].len = pdev->lr_bar[bar].len;
	return base;
}

int
pcie_capability_clear_and_set_word(struct pci_dev *pdev, int pos, u16 clear, u16 set)
{
	u16 v;

	if (pos < 0 || LR_PCIE_CAP + pos + 2 > (int)sizeof(pdev->lr_cfg))
		return -EINVAL;
	memcpy(&v, &pdev->lr_cfg[LR_PCIE_CAP + pos], 2);
	v = (v & ~clear) | set;
	memcpy(&pdev->lr_cfg[LR_PCIE_CAP + pos], &v, 2);
	return 0;
}

int
pci_write_config_dword(const struct pci_dev *pdev, int where, u32 val)
{
	if (where < 0 || where + 4 > (int)sizeof(pdev->lr_cfg) || (where & 3) != 0)
		return -EINVAL;
	memcpy((u8 *)&pdev->lr_cfg[where], &val, 4);
	return 0;
}

int
pci_read_config_dword(const struct pci_dev *pdev, int where, u32 *val)
{
	if (where < 0 || where + 4 > (int)sizeof(pdev->lr_cfg) || (where & 3) != 0)
		return -EINVAL;
	memcpy(val, &pdev->lr_cfg[where], 4);
	return 0;
}
