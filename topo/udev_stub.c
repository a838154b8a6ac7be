/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwloc's static library calls libudev only to name I/O devices, which we
 * never ask for (I/O discovery is filtered out). Debian ships no static
 * libudev, so these stand-ins keep scx_fuzz one static binary: udev_new()
 * failing makes hwloc skip udev altogether.
 */
#include <stddef.h>

struct udev;
struct udev_device;

struct udev *udev_new(void) { return NULL; }
struct udev *udev_unref(struct udev *u) { return NULL; }
struct udev_device *udev_device_new_from_subsystem_sysname(struct udev *u, const char *s, const char *n)
{
	return NULL;
}
struct udev_device *udev_device_unref(struct udev_device *d) { return NULL; }
const char *udev_device_get_property_value(struct udev_device *d, const char *key) { return NULL; }
