/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Telling a binary's own functions from the runtime linked into it, by name,
 * for binaries without debug info. Every executable has the C start-up code;
 * a static one also has the C library, named in runtime_names.h, which the
 * build generates from this toolchain's static archives
 * (scripts/runtime-names.sh): their global functions, and their object files,
 * whose STT_FILE symbols precede their local functions in a static binary.
 * C++: mangled names are the program's own unless they are the standard
 * library's (std::, __gnu_cxx::, __cxxabiv1::, operator new and delete).
 */
#include <stdlib.h>
#include <string.h>

#include "runtime.h"
#include "runtime_names.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int cmp_name(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

static bool listed(const char *name, const char *const *list, size_t n)
{
	return n && bsearch(name, list, n, sizeof(*list), cmp_name);
}

static bool cxx_runtime(const char *name)
{
	static const char *const prefixes[] = {
		"_ZNSt", "_ZNKSt", "_ZSt", "_ZNSs", "_ZNKSs", "_ZNSi", "_ZNSo", "_ZNSd", "_ZN9__gnu_cxx",
		"_ZNK9__gnu_cxx", "_ZN10__cxxabiv1", "_ZNK10__cxxabiv1", "_ZN11__gnu_debug", "_ZTh", "_ZTv",
		"_ZTc", "_Znw", "_Zna", "_Zdl", "_Zda",
	};

	for (size_t i = 0; i < COUNT(prefixes); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

bool runtime_func(const char *name, const char *file, bool static_link)
{
	if (!strncmp(name, "_Z", 2))
		return cxx_runtime(name);
	if (name[0] == '_' || !strcmp(name, "frame_dummy") || !strcmp(name, "register_tm_clones") ||
	    !strcmp(name, "deregister_tm_clones"))
		return true;
	if (!static_link)
		return false;
	if (file)
		return listed(file, runtime_objects, COUNT(runtime_objects));
	return listed(name, runtime_funcs, COUNT(runtime_funcs));
}
