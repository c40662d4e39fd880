/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The DPDK RapidIO authors
 */

/*
 * A small Linux kernel API in user space, force-included (-include) before
 * every translation unit of Linux's RapidIO sources, which are compiled
 * unmodified. Every <linux/...> and <asm/...> header they include resolves
 * to an empty file of shim/include/: all definitions live here, in one
 * place, so that another Linux driver (e.g. a master port driver) builds
 * over the same shim. This is our own code: it offers the interfaces the
 * kernel documents, implemented as simply as a single-threaded test node
 * allows (locks are real, nothing sleeps in another thread, work runs when
 * it is queued or flushed, timers run from lr_kernel_poll()).
 *
 * Never include DPDK headers next to this one: names such as container_of,
 * likely or BIT have other definitions there. Code that needs both talks
 * through lr_bridge.h, which uses standard C types only.
 */

#ifndef LR_KERNEL_H
#define LR_KERNEL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* ---------------------------------------------------------------- types */

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef uint8_t __u8;
typedef uint16_t __u16;
typedef uint32_t __u32;
typedef uint64_t __u64;
typedef uint16_t __be16;
typedef uint32_t __be32;
typedef uint16_t __le16;
typedef uint32_t __le32;
typedef uint64_t __le64;
typedef unsigned int gfp_t;
typedef uint64_t dma_addr_t;
typedef uint64_t phys_addr_t;
typedef uint64_t resource_size_t;
typedef unsigned short umode_t;

typedef struct {
	int counter;
} atomic_t;

typedef struct {
	atomic_t refs;
} refcount_t;

#define __init
#define __exit
#define __refdata
#define __iomem
#define __user
#define __must_check
#define __maybe_unused __attribute__((unused))
#define __always_unused __attribute__((unused))
#define __packed __attribute__((packed))
#define __aligned(x) __attribute__((aligned(x)))
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define noinline __attribute__((noinline))

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

#define container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define BIT(n) (1UL << (n))
#define BITS_PER_LONG (sizeof(long) * CHAR_BIT)
#define BITS_TO_LONGS(n) (((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define DMA_BIT_MASK(n) (((n) == 64) ? ~0ULL : ((1ULL << (n)) - 1))
#define struct_size(p, member, count) \
	(sizeof(*(p)) + sizeof(*(p)->member) * (size_t)(count))
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b) ((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define ALIGN(x, a) (((x) + (a) - 1) & ~((__typeof__(x))(a) - 1))
#define IS_ERR_VALUE(x) ((unsigned long)(x) >= (unsigned long)-4095)
#define BUILD_BUG_ON(c) ((void)sizeof(char[1 - 2 * !!(c)]))
#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)

static inline void *ERR_PTR(long e) { return (void *)e; }
static inline long PTR_ERR(const void *p) { return (long)p; }
static inline bool IS_ERR(const void *p) { return IS_ERR_VALUE((unsigned long)p); }
static inline bool IS_ERR_OR_NULL(const void *p) { return p == NULL || IS_ERR(p); }

/* ---------------------------------------------------------------- modules */

struct module;
#define THIS_MODULE ((struct module *)0)
#define MODULE_AUTHOR(x)
#define MODULE_DESCRIPTION(x)
#define MODULE_LICENSE(x)
#define MODULE_VERSION(x)
#define MODULE_PARM_DESC(n, d)
#define MODULE_DEVICE_TABLE(t, n)
#define EXPORT_SYMBOL(s)
#define EXPORT_SYMBOL_GPL(s)
static inline bool try_module_get(struct module *m) { (void)m; return true; }
static inline void module_put(struct module *m) { (void)m; }

/*
 * Module parameters: each one is registered under "<file>.<name>" (the
 * object's KBUILD_MODNAME, given with -D) so that the node sets them as
 * a kernel command line would ("rapidio.hdid=0", "rio_scan.scan=1").
 */
enum lr_param_type { LR_PARAM_INT, LR_PARAM_UINT, LR_PARAM_BYTE, LR_PARAM_BOOL, LR_PARAM_INT_ARRAY };
struct lr_param {
	const char *name;
	enum lr_param_type type;
	void *var;
	int *nump;
	unsigned int max;
	struct lr_param *next;
};
void lr_param_register(struct lr_param *p);
int lr_param_set(const char *name, const char *value);

#ifndef KBUILD_MODNAME
#define KBUILD_MODNAME "kernel"
#endif
#define LR_PARAM_(n, t, v, np, m) \
	static struct lr_param lr_param_##n = { KBUILD_MODNAME "." #n, t, v, np, m, NULL }; \
	__attribute__((constructor)) static void lr_param_ctor_##n(void) \
	{ lr_param_register(&lr_param_##n); }
#define lr_param_type_int LR_PARAM_INT
#define lr_param_type_bool LR_PARAM_BOOL
#define lr_param_type_uint LR_PARAM_UINT
#define lr_param_type_byte LR_PARAM_BYTE
#define module_param(n, type, perm) LR_PARAM_(n, lr_param_type_##type, &(n), NULL, 1)
#define module_param_named(n, v, type, perm) LR_PARAM_(n, lr_param_type_##type, &(v), NULL, 1)
#define module_param_array(n, type, nump, perm) \
	LR_PARAM_(n, LR_PARAM_INT_ARRAY, (n), (nump), ARRAY_SIZE(n))

/*
 * Initcalls run in level order from lr_kernel_init_upto(); within a level in
 * link order (constructors run in link order with GNU ld).
 */
typedef int (*initcall_t)(void);
void lr_initcall_register(int level, initcall_t fn, const char *name);
#define LR_INITCALL_(lvl, fn) \
	__attribute__((constructor)) static void lr_initcall_##fn(void) \
	{ lr_initcall_register(lvl, fn, #fn); }
#define core_initcall(fn) LR_INITCALL_(1, fn)
#define postcore_initcall(fn) LR_INITCALL_(2, fn)
#define arch_initcall(fn) LR_INITCALL_(3, fn)
#define subsys_initcall(fn) LR_INITCALL_(4, fn)
#define fs_initcall(fn) LR_INITCALL_(5, fn)
#define device_initcall(fn) LR_INITCALL_(6, fn)
#define module_init(fn) LR_INITCALL_(6, fn)
#define late_initcall(fn) LR_INITCALL_(7, fn)
#define module_exit(fn) \
	__attribute__((unused)) static void (*lr_exitcall_##fn)(void) = fn;

/* ---------------------------------------------------------------- printk */

#define KERN_SOH "\001"
#define KERN_EMERG KERN_SOH "0"
#define KERN_ALERT KERN_SOH "1"
#define KERN_CRIT KERN_SOH "2"
#define KERN_ERR KERN_SOH "3"
#define KERN_WARNING KERN_SOH "4"
#define KERN_NOTICE KERN_SOH "5"
#define KERN_INFO KERN_SOH "6"
#define KERN_DEBUG KERN_SOH "7"
#define KERN_CONT KERN_SOH "c"

/* Messages up to this level are printed (lr_kernel_set_loglevel()). */
int printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define pr_fmt(fmt) fmt
#define pr_emerg(fmt, ...) printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...) printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...) printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...) printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...) printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...) printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...) printk(KERN_CONT fmt, ##__VA_ARGS__)
#define no_printk(fmt, ...) ({ if (0) printk(fmt, ##__VA_ARGS__); 0; })

struct device;
const char *dev_name(const struct device *dev);
const char *dev_driver_string(const struct device *dev);
#define dev_printk_(lvl, dev, fmt, ...) \
	printk(lvl "%s: " fmt, dev_name(dev), ##__VA_ARGS__)
#define dev_err(dev, fmt, ...) dev_printk_(KERN_ERR, dev, fmt, ##__VA_ARGS__)
#define dev_warn(dev, fmt, ...) dev_printk_(KERN_WARNING, dev, fmt, ##__VA_ARGS__)
#define dev_info(dev, fmt, ...) dev_printk_(KERN_INFO, dev, fmt, ##__VA_ARGS__)
#define dev_notice(dev, fmt, ...) dev_printk_(KERN_NOTICE, dev, fmt, ##__VA_ARGS__)
#define dev_dbg(dev, fmt, ...) dev_printk_(KERN_DEBUG, dev, fmt, ##__VA_ARGS__)

void lr_warn_on(const char *file, int line);
#define WARN(cond, fmt, ...) ({ \
	int lr_w_ = !!(cond); \
	if (lr_w_) { printk(KERN_WARNING fmt, ##__VA_ARGS__); lr_warn_on(__FILE__, __LINE__); } \
	lr_w_; })
#define WARN_ON(cond) ({ int lr_w_ = !!(cond); if (lr_w_) lr_warn_on(__FILE__, __LINE__); lr_w_; })
#define WARN_ON_ONCE(cond) WARN_ON(cond)
#define BUG() abort()
#define BUG_ON(cond) do { if (cond) abort(); } while (0)

/* ---------------------------------------------------------------- strings */

ssize_t strscpy(char *dst, const char *src, size_t count);

/* ---------------------------------------------------------------- atomics */

static inline int atomic_read(const atomic_t *a) { return __atomic_load_n(&a->counter, __ATOMIC_SEQ_CST); }
static inline void atomic_set(atomic_t *a, int v) { __atomic_store_n(&a->counter, v, __ATOMIC_SEQ_CST); }
static inline void atomic_inc(atomic_t *a) { __atomic_add_fetch(&a->counter, 1, __ATOMIC_SEQ_CST); }
static inline void atomic_dec(atomic_t *a) { __atomic_sub_fetch(&a->counter, 1, __ATOMIC_SEQ_CST); }
static inline bool atomic_dec_and_test(atomic_t *a)
{
	return __atomic_sub_fetch(&a->counter, 1, __ATOMIC_SEQ_CST) == 0;
}
static inline int atomic_cmpxchg(atomic_t *a, int old, int new_val)
{
	__atomic_compare_exchange_n(&a->counter, &old, new_val, false, __ATOMIC_SEQ_CST,
				    __ATOMIC_SEQ_CST);
	return old;
}
static inline void refcount_set(refcount_t *r, int v) { atomic_set(&r->refs, v); }
static inline void refcount_inc(refcount_t *r) { atomic_inc(&r->refs); }
static inline bool refcount_dec_and_test(refcount_t *r) { return atomic_dec_and_test(&r->refs); }
static inline unsigned int refcount_read(const refcount_t *r) { return atomic_read(&r->refs); }

/* ---------------------------------------------------------------- bitops */

static inline void set_bit(long nr, volatile unsigned long *addr)
{
	addr[nr / BITS_PER_LONG] |= 1UL << (nr % BITS_PER_LONG);
}
static inline void clear_bit(long nr, volatile unsigned long *addr)
{
	addr[nr / BITS_PER_LONG] &= ~(1UL << (nr % BITS_PER_LONG));
}
static inline int test_bit(long nr, const volatile unsigned long *addr)
{
	return (addr[nr / BITS_PER_LONG] >> (nr % BITS_PER_LONG)) & 1;
}
static inline int test_and_set_bit(long nr, volatile unsigned long *addr)
{
	int old = test_bit(nr, addr);

	set_bit(nr, addr);
	return old;
}
static inline unsigned long __fls(unsigned long x) { return BITS_PER_LONG - 1 - __builtin_clzl(x); }
static inline bool is_power_of_2(unsigned long n) { return n != 0 && (n & (n - 1)) == 0; }
static inline unsigned long roundup_pow_of_two(unsigned long n)
{
	return n <= 1 ? 1 : 1UL << (__fls(n - 1) + 1);
}
unsigned long find_next_bit(const unsigned long *addr, unsigned long size, unsigned long off);
unsigned long find_next_zero_bit(const unsigned long *addr, unsigned long size,
				 unsigned long off);
#define find_first_bit(addr, size) find_next_bit((addr), (size), 0)
#define find_first_zero_bit(addr, size) find_next_zero_bit((addr), (size), 0)

/* ---------------------------------------------------------------- lists */

struct list_head {
	struct list_head *next, *prev;
};
#define LIST_HEAD_INIT(name) { &(name), &(name) }
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)
static inline void INIT_LIST_HEAD(struct list_head *l) { l->next = l; l->prev = l; }
static inline void lr_list_add_(struct list_head *n, struct list_head *prev,
				struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}
static inline void list_add(struct list_head *n, struct list_head *h) { lr_list_add_(n, h, h->next); }
static inline void list_add_tail(struct list_head *n, struct list_head *h) { lr_list_add_(n, h->prev, h); }
static inline void list_del(struct list_head *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
	e->next = NULL;
	e->prev = NULL;
}
static inline void list_del_init(struct list_head *e) { list_del(e); INIT_LIST_HEAD(e); }
static inline int list_empty(const struct list_head *h) { return h->next == h; }
#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(ptr, type, member) list_entry((ptr)->next, type, member)
#define list_next_entry(pos, member) list_entry((pos)->member.next, __typeof__(*(pos)), member)
#define list_for_each(pos, head) for (pos = (head)->next; pos != (head); pos = pos->next)
#define list_for_each_safe(pos, n, head) \
	for (pos = (head)->next, n = pos->next; pos != (head); pos = n, n = pos->next)
#define list_for_each_entry(pos, head, member) \
	for (pos = list_first_entry(head, __typeof__(*pos), member); \
	     &pos->member != (head); pos = list_next_entry(pos, member))
#define list_for_each_entry_safe(pos, n, head, member) \
	for (pos = list_first_entry(head, __typeof__(*pos), member), \
	     n = list_next_entry(pos, member); \
	     &pos->member != (head); pos = n, n = list_next_entry(n, member))

/* ---------------------------------------------------------------- locks */

/*
 * Spinlocks and mutexes are non-recursive pthread mutexes: a lock taken
 * twice (a bug in the kernel as well) deadlocks instead of passing.
 */
typedef struct {
	pthread_mutex_t m;
} spinlock_t;
#define __SPIN_LOCK_UNLOCKED(x) { PTHREAD_MUTEX_INITIALIZER }
#define DEFINE_SPINLOCK(x) spinlock_t x = __SPIN_LOCK_UNLOCKED(x)
static inline void spin_lock_init(spinlock_t *l) { pthread_mutex_init(&l->m, NULL); }
static inline void spin_lock(spinlock_t *l) { pthread_mutex_lock(&l->m); }
static inline void spin_unlock(spinlock_t *l) { pthread_mutex_unlock(&l->m); }
#define spin_lock_irqsave(l, flags) do { (flags) = 0; spin_lock(l); } while (0)
#define spin_unlock_irqrestore(l, flags) do { (void)(flags); spin_unlock(l); } while (0)
#define spin_lock_irq(l) spin_lock(l)
#define spin_unlock_irq(l) spin_unlock(l)
#define spin_lock_bh(l) spin_lock(l)
#define spin_unlock_bh(l) spin_unlock(l)

struct mutex {
	pthread_mutex_t m;
};
#define DEFINE_MUTEX(x) struct mutex x = { PTHREAD_MUTEX_INITIALIZER }
static inline void mutex_init(struct mutex *l) { pthread_mutex_init(&l->m, NULL); }
static inline void mutex_lock(struct mutex *l) { pthread_mutex_lock(&l->m); }
static inline void mutex_unlock(struct mutex *l) { pthread_mutex_unlock(&l->m); }
static inline int mutex_lock_interruptible(struct mutex *l) { mutex_lock(l); return 0; }

/* ---------------------------------------------------------------- memory */

#define GFP_KERNEL 0u
#define GFP_ATOMIC 1u
#define __GFP_ZERO 0x100u
void *kmalloc(size_t size, gfp_t flags);
void *kzalloc(size_t size, gfp_t flags);
void *kcalloc(size_t n, size_t size, gfp_t flags);
void kfree(const void *p);
#define kmalloc_array(n, s, f) kcalloc(n, s, f)
unsigned long __get_free_pages(gfp_t flags, unsigned int order);
void free_pages(unsigned long addr, unsigned int order);
int get_order(unsigned long size);

/* ---------------------------------------------------------------- time */

#define HZ 1000
/* Milliseconds since the node started, advanced by the clock (not by polls). */
unsigned long lr_jiffies(void);
#define jiffies lr_jiffies()
#define time_after(a, b) ((long)((b) - (a)) < 0)
#define time_before(a, b) time_after(b, a)
#define time_after_eq(a, b) ((long)((a) - (b)) >= 0)
#define time_before_eq(a, b) time_after_eq(b, a)
static inline unsigned long msecs_to_jiffies(unsigned int ms) { return ms; }
static inline unsigned int jiffies_to_msecs(unsigned long j) { return j; }
void udelay(unsigned long us);
void ndelay(unsigned long ns);
void mdelay(unsigned long ms);
void msleep(unsigned int ms);
void usleep_range(unsigned long min_us, unsigned long max_us);

struct timer_list {
	struct list_head entry;
	unsigned long expires;
	void (*function)(struct timer_list *t);
	bool pending;
};
void timer_setup(struct timer_list *t, void (*fn)(struct timer_list *), unsigned int flags);
int mod_timer(struct timer_list *t, unsigned long expires);
void add_timer(struct timer_list *t);
int del_timer(struct timer_list *t);
#define del_timer_sync(t) del_timer(t)
#define from_timer(var, t, field) container_of(t, __typeof__(*var), field)

/* ---------------------------------------------------------------- work */

struct work_struct;
typedef void (*work_func_t)(struct work_struct *w);
struct work_struct {
	struct list_head entry;
	work_func_t func;
	bool pending;
};
struct workqueue_struct;
#define INIT_WORK(w, fn) do { INIT_LIST_HEAD(&(w)->entry); (w)->func = (fn); \
			      (w)->pending = false; } while (0)
struct workqueue_struct *alloc_workqueue(const char *fmt, unsigned int flags, int max_active, ...);
#define create_singlethread_workqueue(name) alloc_workqueue(name, 0, 1)
void destroy_workqueue(struct workqueue_struct *wq);
bool queue_work(struct workqueue_struct *wq, struct work_struct *w);
bool schedule_work(struct work_struct *w);
void flush_workqueue(struct workqueue_struct *wq);
bool flush_work(struct work_struct *w);
bool cancel_work_sync(struct work_struct *w);
#define flush_scheduled_work() flush_workqueue(NULL)

/* ---------------------------------------------------------------- resources */

struct resource {
	resource_size_t start;
	resource_size_t end;
	const char *name;
	unsigned long flags;
	struct resource *parent, *sibling, *child;
};
#define IORESOURCE_MEM 0x00000200
int request_resource(struct resource *root, struct resource *n);
int release_resource(struct resource *old);
static inline resource_size_t resource_size(const struct resource *r)
{
	return r->end - r->start + 1;
}

/* ---------------------------------------------------------------- device model */

struct kobject {
	const char *name;
};
struct kobj_uevent_env {
	int envp_idx;
};
int add_uevent_var(struct kobj_uevent_env *env, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

struct attribute {
	const char *name;
	umode_t mode;
};
struct attribute_group {
	const char *name;
	struct attribute **attrs;
};
struct device_attribute {
	struct attribute attr;
	ssize_t (*show)(struct device *dev, struct device_attribute *attr, char *buf);
	ssize_t (*store)(struct device *dev, struct device_attribute *attr, const char *buf,
			 size_t count);
};
#define S_IRUGO 0444
#define S_IWUSR 0200
#define S_IRUSR 0400
#define __ATTR(n, m, sh, st) { .attr = { .name = #n, .mode = m }, .show = sh, .store = st }
#define DEVICE_ATTR(n, m, sh, st) struct device_attribute dev_attr_##n = __ATTR(n, m, sh, st)
#define DEVICE_ATTR_RO(n) struct device_attribute dev_attr_##n = __ATTR(n, 0444, n##_show, NULL)
#define DEVICE_ATTR_WO(n) struct device_attribute dev_attr_##n = __ATTR(n, 0200, NULL, n##_store)
#define DEVICE_ATTR_RW(n) struct device_attribute dev_attr_##n = __ATTR(n, 0644, n##_show, n##_store)
int device_create_file(struct device *dev, const struct device_attribute *attr);
void device_remove_file(struct device *dev, const struct device_attribute *attr);
int sysfs_emit(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

struct bus_type;
struct class;
struct device_driver;

struct device {
	struct device *parent;
	struct kobject kobj;
	char *name;			/* dev_set_name() */
	const char *init_name;
	struct bus_type *bus;
	struct device_driver *driver;
	struct class *class;
	void *driver_data;
	void *platform_data;
	u64 *dma_mask;
	u64 coherent_dma_mask;
	const struct attribute_group **groups;
	void (*release)(struct device *dev);
	/* shim bookkeeping */
	int refcount;
	bool registered;
	struct list_head lr_bus_node;	/* on its bus or class */
	struct list_head lr_children;	/* devices whose parent this is */
	struct list_head lr_sibling;	/* on the parent's lr_children */
};

struct device_driver {
	const char *name;
	struct bus_type *bus;
	struct module *owner;
	int (*probe)(struct device *dev);
	int (*remove)(struct device *dev);
	void (*shutdown)(struct device *dev);
	struct list_head lr_node;
};

struct bus_type {
	const char *name;
	const struct attribute_group **dev_groups;
	const struct attribute_group **bus_groups;
	const struct attribute_group **drv_groups;
	int (*match)(struct device *dev, struct device_driver *drv);
	int (*uevent)(struct device *dev, struct kobj_uevent_env *env);
	int (*probe)(struct device *dev);
	void (*remove)(struct device *dev);
	void (*shutdown)(struct device *dev);
	/* shim bookkeeping */
	bool lr_registered;
	struct list_head lr_devices;
	struct list_head lr_drivers;
	struct list_head lr_interfaces;
};

struct class {
	const char *name;
	struct module *owner;
	const struct attribute_group **dev_groups;
	/* shim bookkeeping */
	bool lr_registered;
	struct list_head lr_devices;
	struct list_head lr_interfaces;
};

struct subsys_interface {
	const char *name;
	struct bus_type *subsys;
	struct list_head node;
	int (*add_dev)(struct device *dev, struct subsys_interface *sif);
	void (*remove_dev)(struct device *dev, struct subsys_interface *sif);
};

struct class_interface {
	struct list_head node;
	struct class *class;
	int (*add_dev)(struct device *dev, struct class_interface *intf);
	void (*remove_dev)(struct device *dev, struct class_interface *intf);
};

int dev_set_name(struct device *dev, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void device_initialize(struct device *dev);
int device_add(struct device *dev);
void device_del(struct device *dev);
int device_register(struct device *dev);
void device_unregister(struct device *dev);
struct device *get_device(struct device *dev);
void put_device(struct device *dev);
int device_for_each_child(struct device *parent, void *data,
			  int (*fn)(struct device *dev, void *data));
static inline void *dev_get_drvdata(const struct device *dev) { return dev->driver_data; }
static inline void dev_set_drvdata(struct device *dev, void *data) { dev->driver_data = data; }
int bus_register(struct bus_type *bus);
void bus_unregister(struct bus_type *bus);
int bus_for_each_dev(struct bus_type *bus, struct device *start, void *data,
		     int (*fn)(struct device *dev, void *data));
int driver_register(struct device_driver *drv);
void driver_unregister(struct device_driver *drv);
int class_register(struct class *cls);
void class_unregister(struct class *cls);
int class_interface_register(struct class_interface *intf);
void class_interface_unregister(struct class_interface *intf);
int subsys_interface_register(struct subsys_interface *sif);
void subsys_interface_unregister(struct subsys_interface *sif);

/* ---------------------------------------------------------------- notifiers */

struct notifier_block {
	int (*notifier_call)(struct notifier_block *nb, unsigned long action, void *data);
	struct notifier_block *next;
	int priority;
};
#define NOTIFY_DONE 0x0000
#define NOTIFY_OK 0x0001
int register_reboot_notifier(struct notifier_block *nb);
int unregister_reboot_notifier(struct notifier_block *nb);
/* Calls the reboot notifiers, as a shutdown of the machine would. */
void lr_kernel_reboot(void);

/* ---------------------------------------------------------------- device IDs */

#define RIO_ANY_ID 0xffff
struct rio_device_id {
	__u16 did, vid;
	__u16 asm_did, asm_vid;
};

/* ---------------------------------------------------------------- networking */

#define ETH_ALEN 6
#define ETH_HLEN 14
#define ETH_ZLEN 60
#define ETH_DATA_LEN 1500
#define ETH_FRAME_LEN 1514
#define ETH_MIN_MTU 68
#define ETH_P_802_3_MIN 0x0600
#define ETH_P_802_2 0x0004

struct ethhdr {
	unsigned char h_dest[ETH_ALEN];
	unsigned char h_source[ETH_ALEN];
	__be16 h_proto;
} __attribute__((packed));

static inline bool is_multicast_ether_addr(const u8 *addr) { return addr[0] & 0x01; }
static inline bool is_broadcast_ether_addr(const u8 *a)
{
	return (a[0] & a[1] & a[2] & a[3] & a[4] & a[5]) == 0xff;
}
static inline bool is_zero_ether_addr(const u8 *a)
{
	return (a[0] | a[1] | a[2] | a[3] | a[4] | a[5]) == 0;
}
static inline bool is_valid_ether_addr(const u8 *a)
{
	return !is_multicast_ether_addr(a) && !is_zero_ether_addr(a);
}

enum { PACKET_HOST = 0, PACKET_BROADCAST = 1, PACKET_MULTICAST = 2, PACKET_OTHERHOST = 3 };

struct net_device;

struct sk_buff {
	struct net_device *dev;
	unsigned char *head;	/* start of the allocation */
	unsigned char *data;
	unsigned char *mac_header;	/* set by eth_type_trans() */
	unsigned int len;
	unsigned int truesize;	/* bytes allocated at head */
	__be16 protocol;
	u8 pkt_type;
	refcount_t users;
};

struct net_device_stats {
	unsigned long rx_packets, tx_packets, rx_bytes, tx_bytes;
	unsigned long rx_errors, tx_errors, rx_dropped, tx_dropped;
};

typedef enum netdev_tx {
	NETDEV_TX_OK = 0x00,
	NETDEV_TX_BUSY = 0x10,
} netdev_tx_t;

struct net_device_ops {
	int (*ndo_open)(struct net_device *dev);
	int (*ndo_stop)(struct net_device *dev);
	netdev_tx_t (*ndo_start_xmit)(struct sk_buff *skb, struct net_device *dev);
	int (*ndo_validate_addr)(struct net_device *dev);
	int (*ndo_set_mac_address)(struct net_device *dev, void *addr);
	int (*ndo_change_mtu)(struct net_device *dev, int new_mtu);
};

#define ETHTOOL_BUSINFO_LEN 32
struct ethtool_drvinfo {
	char driver[32];
	char version[32];
	char fw_version[32];
	char bus_info[ETHTOOL_BUSINFO_LEN];
};
struct ethtool_ops {
	void (*get_drvinfo)(struct net_device *dev, struct ethtool_drvinfo *info);
	u32 (*get_msglevel)(struct net_device *dev);
	void (*set_msglevel)(struct net_device *dev, u32 value);
	u32 (*get_link)(struct net_device *dev);
};
u32 ethtool_op_get_link(struct net_device *dev);

#define NETIF_F_LLTX (1ULL << 22)
#define IFNAMSIZ 16

struct net_device {
	char name[IFNAMSIZ];
	struct net_device_stats stats;
	unsigned int mtu;
	unsigned int min_mtu;
	unsigned int max_mtu;
	u64 features;
	const struct net_device_ops *netdev_ops;
	const struct ethtool_ops *ethtool_ops;
	const unsigned char *dev_addr;
	unsigned char lr_addr[ETH_ALEN];
	struct device dev;
	bool lr_queue_stopped;
	bool lr_carrier;
	bool lr_up;
	bool lr_registered;
	struct list_head lr_node;
	/* private area (netdev_priv()) follows, aligned */
	long long lr_priv[] __attribute__((aligned(32)));
};
static inline void *netdev_priv(const struct net_device *dev) { return (void *)dev->lr_priv; }
#define SET_NETDEV_DEV(ndev, pdev) ((ndev)->dev.parent = (pdev))

struct net_device *alloc_etherdev(int sizeof_priv);
void free_netdev(struct net_device *dev);
int register_netdev(struct net_device *dev);
void unregister_netdev(struct net_device *dev);
void eth_hw_addr_set(struct net_device *dev, const u8 *addr);
int eth_validate_addr(struct net_device *dev);
int eth_mac_addr(struct net_device *dev, void *p);
static inline void netif_start_queue(struct net_device *d) { d->lr_queue_stopped = false; }
static inline void netif_wake_queue(struct net_device *d) { d->lr_queue_stopped = false; }
static inline void netif_stop_queue(struct net_device *d) { d->lr_queue_stopped = true; }
static inline bool netif_queue_stopped(const struct net_device *d) { return d->lr_queue_stopped; }
static inline void netif_carrier_on(struct net_device *d) { d->lr_carrier = true; }
static inline void netif_carrier_off(struct net_device *d) { d->lr_carrier = false; }
static inline bool netif_carrier_ok(const struct net_device *d) { return d->lr_carrier; }

#define NETIF_MSG_DRV 0x0001
#define NETIF_MSG_PROBE 0x0002
#define NETIF_MSG_LINK 0x0004
#define NETIF_MSG_TIMER 0x0008
#define NETIF_MSG_IFDOWN 0x0010
#define NETIF_MSG_IFUP 0x0020
#define NETIF_MSG_RX_ERR 0x0040
#define NETIF_MSG_TX_ERR 0x0080
#define NETIF_MSG_TX_QUEUED 0x0100
#define NETIF_MSG_INTR 0x0200
#define NETIF_MSG_TX_DONE 0x0400
#define NETIF_MSG_RX_STATUS 0x0800
#define netif_msg_drv(p) ((p)->msg_enable & NETIF_MSG_DRV)
#define netif_msg_link(p) ((p)->msg_enable & NETIF_MSG_LINK)
#define netif_msg_ifup(p) ((p)->msg_enable & NETIF_MSG_IFUP)
#define netif_msg_ifdown(p) ((p)->msg_enable & NETIF_MSG_IFDOWN)
#define netif_msg_rx_err(p) ((p)->msg_enable & NETIF_MSG_RX_ERR)
#define netif_msg_tx_err(p) ((p)->msg_enable & NETIF_MSG_TX_ERR)
#define netif_msg_tx_queued(p) ((p)->msg_enable & NETIF_MSG_TX_QUEUED)
#define netif_msg_intr(p) ((p)->msg_enable & NETIF_MSG_INTR)

#define NET_RX_SUCCESS 0
#define NET_RX_DROP 1

struct sk_buff *dev_alloc_skb(unsigned int length);
#define netdev_alloc_skb(dev, len) dev_alloc_skb(len)
void kfree_skb(struct sk_buff *skb);
#define dev_kfree_skb(skb) kfree_skb(skb)
#define dev_kfree_skb_any(skb) kfree_skb(skb)
#define dev_kfree_skb_irq(skb) kfree_skb(skb)
#define consume_skb(skb) kfree_skb(skb)
void *skb_put(struct sk_buff *skb, unsigned int len);
void *skb_pull(struct sk_buff *skb, unsigned int len);
__be16 eth_type_trans(struct sk_buff *skb, struct net_device *dev);
int __netif_rx(struct sk_buff *skb);
int netif_rx(struct sk_buff *skb);

static inline u16 lr_be16(u16 v) { return __builtin_bswap16(v); }
#define htons(x) lr_be16(x)
#define ntohs(x) lr_be16(x)

/* ---------------------------------------------------------------- misc */

#define capable(c) 1
#define might_sleep() do { } while (0)
#define cond_resched() do { } while (0)
#define smp_mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_wmb() __atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_rmb() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define wmb() smp_wmb()
#define rmb() smp_rmb()
#define mb() smp_mb()

/* ---------------------------------------------------------------- byte order */

#include <endian.h>
#define cpu_to_le16(x) ((__le16)htole16(x))
#define cpu_to_le32(x) ((__le32)htole32(x))
#define cpu_to_le64(x) ((__le64)htole64(x))
#define le16_to_cpu(x) le16toh(x)
#define le32_to_cpu(x) le32toh(x)
#define le64_to_cpu(x) le64toh(x)
#define cpu_to_be16(x) ((__be16)htobe16(x))
#define cpu_to_be32(x) ((__be32)htobe32(x))
#define be16_to_cpu(x) be16toh(x)
#define be32_to_cpu(x) be32toh(x)
#define cpu_to_be32p(p) cpu_to_be32(*(p))

/* ---------------------------------------------------------------- MMIO */

/*
 * An ioremapped BAR is a reserved, inaccessible address range: a driver
 * that dereferences it instead of using the accessors below faults. The
 * accessors hand each access to the device model behind the BAR, as a
 * bus would (little-endian 32-bit registers; iowrite16be() puts the
 * value big-endian on the bus).
 */
u32 ioread32(const volatile void __iomem *addr);
void iowrite32(u32 val, volatile void __iomem *addr);
void iowrite16be(u16 val, volatile void __iomem *addr);
void iounmap(volatile void __iomem *addr);

/* ---------------------------------------------------------------- DMA */

struct device;
int dma_set_mask(struct device *dev, u64 mask);
int dma_set_coherent_mask(struct device *dev, u64 mask);
/*
 * Zeroed memory the device reaches at *handle (DPDK memory, its IOVA),
 * aligned to the page order of @size, as the kernel's.
 */
void *dma_alloc_coherent(struct device *dev, size_t size, dma_addr_t *handle, gfp_t gfp);
void dma_free_coherent(struct device *dev, size_t size, void *va, dma_addr_t handle);

enum dma_data_direction {
	DMA_BIDIRECTIONAL = 0,
	DMA_TO_DEVICE = 1,
	DMA_FROM_DEVICE = 2,
	DMA_NONE = 3,
};

struct scatterlist;
/*
 * Streaming mapping of a scatter list (<linux/scatterlist.h>): each entry
 * gets the IOVA of its virtual range. @return nents, or 0 when an entry is
 * not DPDK memory (only DPDK memory has an IOVA a device can reach).
 */
int dma_map_sg(struct device *dev, struct scatterlist *sg, int nents,
	       enum dma_data_direction dir);
void dma_unmap_sg(struct device *dev, struct scatterlist *sg, int nents,
		  enum dma_data_direction dir);

/* ---------------------------------------------------------------- interrupts */

typedef enum irqreturn { IRQ_NONE = 0, IRQ_HANDLED = 1, IRQ_WAKE_THREAD = 2 } irqreturn_t;
typedef irqreturn_t (*irq_handler_t)(int irq, void *dev_id);
#define IRQF_SHARED 0x00000080
int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags, const char *name,
		void *dev_id);
const void *free_irq(unsigned int irq, void *dev_id);
/* Only a member of tsi721.h's DMA channel (tsi721_dma.c, which runs tasklets, is not built). */
struct tasklet_struct {
	void (*func)(unsigned long data);
	unsigned long data;
};

/* ---------------------------------------------------------------- kfifo (bytes) */

struct kfifo {
	unsigned char *buf;
	unsigned int size;	/* a power of two */
	unsigned int in, out;
};
int lr_kfifo_alloc(struct kfifo *f, unsigned int size);
void lr_kfifo_free(struct kfifo *f);
unsigned int lr_kfifo_in(struct kfifo *f, const void *buf, unsigned int len);
unsigned int lr_kfifo_out(struct kfifo *f, void *buf, unsigned int len);
#define kfifo_alloc(f, size, gfp) lr_kfifo_alloc((f), (size))
#define kfifo_free(f) lr_kfifo_free(f)
#define kfifo_avail(f) ((f)->size - ((f)->in - (f)->out))
#define kfifo_in(f, buf, len) lr_kfifo_in((f), (buf), (len))
#define kfifo_out_spinlocked(f, buf, len, lock) ({ \
	unsigned int lr_n_; \
	spin_lock(lock); \
	lr_n_ = lr_kfifo_out((f), (buf), (len)); \
	spin_unlock(lock); \
	lr_n_; })

/* ---------------------------------------------------------------- PCI */

#define PCI_ANY_ID (~0u)
#define PCI_VENDOR_ID_IDT 0x111d
#define PCI_STD_NUM_BARS 6
#define IORESOURCE_PREFETCH 0x00002000
#define IORESOURCE_MEM_64 0x00100000
#define PCI_EXP_DEVCTL 0x08
#define PCI_EXP_DEVCTL_RELAX_EN 0x0010
#define PCI_EXP_DEVCTL_NOSNOOP_EN 0x0800
#define PCI_EXP_DEVCTL_READRQ 0x7000
#define PCI_EXP_DEVCTL2 0x28
#define PCI_EXP_DEVCTL2_COMP_TIMEOUT 0x000f

struct pci_device_id {
	u32 vendor, device;
	u32 subvendor, subdevice;
	u32 class, class_mask;
	unsigned long driver_data;
};
#define PCI_DEVICE(vend, dev) \
	.vendor = (vend), .device = (dev), .subvendor = PCI_ANY_ID, .subdevice = PCI_ANY_ID

/*
 * What the node puts behind a PCI function's memory BARs: 32-bit reads and
 * writes (and 16-bit writes, for BAR1 of a Tsi721), and the function's INTx
 * line, sampled where an interrupt controller would deliver it.
 */
struct lr_pci_bar {
	resource_size_t len;
	u32 (*read32)(void *ctx, u32 off);
	void (*write32)(void *ctx, u32 off, u32 val);
	void (*write16)(void *ctx, u32 off, u16 bus_val);
};

struct pci_driver;

struct pci_dev {
	struct device dev;
	unsigned short vendor, device;
	unsigned int irq;
	struct resource resource[PCI_STD_NUM_BARS];
	/* shim bookkeeping */
	void *lr_ctx;
	struct lr_pci_bar lr_bar[PCI_STD_NUM_BARS];
	bool (*lr_intx)(void *ctx);
	u8 lr_cfg[4096];	/* configuration space: a PCIe capability at 0x40 */
	bool lr_enabled, lr_master, lr_regions;
	struct pci_driver *lr_driver;
	struct list_head lr_node;
};

struct pci_driver {
	const char *name;
	const struct pci_device_id *id_table;
	int (*probe)(struct pci_dev *dev, const struct pci_device_id *id);
	void (*remove)(struct pci_dev *dev);
	void (*shutdown)(struct pci_dev *dev);
	struct device_driver driver;
	struct list_head lr_node;
};

int pci_register_driver(struct pci_driver *drv);
void pci_unregister_driver(struct pci_driver *drv);
#define module_pci_driver(drv) \
	static int lr_pci_register_##drv(void) { return pci_register_driver(&(drv)); } \
	module_init(lr_pci_register_##drv)
int pci_enable_device(struct pci_dev *pdev);
void pci_disable_device(struct pci_dev *pdev);
int pci_request_regions(struct pci_dev *pdev, const char *name);
void pci_release_regions(struct pci_dev *pdev);
void pci_set_master(struct pci_dev *pdev);
void pci_clear_master(struct pci_dev *pdev);
void __iomem *pci_ioremap_bar(struct pci_dev *pdev, int bar);
static inline unsigned long pci_resource_flags(const struct pci_dev *p, int bar)
{
	return p->resource[bar].flags;
}
static inline resource_size_t pci_resource_start(const struct pci_dev *p, int bar)
{
	return p->resource[bar].start;
}
static inline resource_size_t pci_resource_len(const struct pci_dev *p, int bar)
{
	return p->resource[bar].flags != 0 ? resource_size(&p->resource[bar]) : 0;
}
static inline bool pci_is_pcie(const struct pci_dev *p) { (void)p; return true; }
int pcie_capability_clear_and_set_word(struct pci_dev *pdev, int pos, u16 clear, u16 set);
int pci_write_config_dword(const struct pci_dev *pdev, int where, u32 val);
int pci_read_config_dword(const struct pci_dev *pdev, int where, u32 *val);
static inline void pci_set_drvdata(struct pci_dev *p, void *data) { dev_set_drvdata(&p->dev, data); }
static inline void *pci_get_drvdata(struct pci_dev *p) { return dev_get_drvdata(&p->dev); }
static inline const char *pci_name(const struct pci_dev *p) { return dev_name(&p->dev); }

/*
 * Plug a PCI function in at @bdf ("0000:01:00.0") with @nb_bars memory BARs
 * (32-bit, non-prefetchable) handled by @bars on @ctx, and @intx its INTx
 * line. A driver registered then or later probes it. @return 0 or -errno.
 */
int lr_pci_add_device(struct pci_dev *pdev, const char *bdf, u16 vendor, u16 device,
		      const struct lr_pci_bar *bars, unsigned int nb_bars,
		      bool (*intx)(void *ctx), void *ctx);
/* Remove it as a hot unplug would (the driver's remove). */
void lr_pci_remove_device(struct pci_dev *pdev);
/*
 * Deliver INTx: call the handlers requested for every PCI function whose
 * line is asserted, as the interrupt would. @return handlers that handled it.
 */
unsigned int lr_pci_poll_intx(void);

/* ---------------------------------------------------------------- node entry points */

/*
 * Runs the initcalls of the levels up to @max_level (1 core .. 6 device,
 * module_init .. 7 late) that have not run yet, so that a caller can
 * register a controller between the device and late levels, as a driver
 * probed at device_initcall time would. @return 0 or the first error.
 */
int lr_kernel_init_upto(int max_level);
/* Runs what an interrupt or softirq would: expired timers, queued work. */
void lr_kernel_poll(void);
/* Messages at or below this printk level are printed (default 6, KERN_INFO). */
void lr_kernel_set_loglevel(int level);
/* Number of WARN()s and WARN_ON()s that fired. */
unsigned int lr_kernel_warnings(void);
/* Network devices registered with register_netdev(), in order. */
struct net_device *lr_netdev_get(unsigned int index);
/* Open (ndo_open) a registered network device, as "ip link set up". */
int dev_open(struct net_device *dev, void *extack);
int dev_close(struct net_device *dev);
/* Frames that __netif_rx() accepts go to this hook (the skb is freed after). */
void lr_netif_rx_hook_set(void (*hook)(struct net_device *dev, const u8 *frame,
				       unsigned int len, void *arg), void *arg);
/* Transmit one frame through a device's ndo_start_xmit (copied into an skb). */
int lr_netdev_xmit(struct net_device *dev, const void *frame, unsigned int len);

#endif /* LR_KERNEL_H */
