/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Back-off: when the machine's (or the target cgroup's) CPU pressure passes
 * cpu_pressure, fuzzing stops at once; it comes back a step at a time, each
 * after resume_step_s seconds below resume_below, so a busy machine is
 * never made busier and a brief calm does not bring everything back.
 */
#include <stdio.h>
#include <string.h>

#include "backoff.h"

static const unsigned fuzzed_pct_at[BACKOFF_FULL + 1] = { 0, 25, 50, 100 };

bool backoff_step(struct backoff *b, double pressure, const struct serve_config *c)
{
	if (pressure > c->cpu_pressure) {
		b->calm_s = 0;
		if (!b->level)
			return false;
		b->level = 0;
		return true;
	}
	if (pressure >= c->resume_below || b->level == BACKOFF_FULL) {
		b->calm_s = 0;
		return false;
	}
	if (++b->calm_s < c->resume_step_s)
		return false;
	b->calm_s = 0;
	b->level++;
	return true;
}

unsigned backoff_unfuzzed_pct(const struct backoff *b)
{
	return 100 - fuzzed_pct_at[b->level <= BACKOFF_FULL ? b->level : BACKOFF_FULL];
}

int psi_some_avg10(const char *text, double *pct)
{
	const char *some = strstr(text, "some avg10=");

	if (!some || (some != text && some[-1] != '\n'))
		return -1;
	return sscanf(some, "some avg10=%lf", pct) == 1 ? 0 : -1;
}
