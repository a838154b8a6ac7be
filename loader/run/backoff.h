/* SPDX-License-Identifier: GPL-2.0 */
/* backoff.c: serve steps fuzzing down under CPU pressure and back up when calm. */
#ifndef FUZZ_BACKOFF_H
#define FUZZ_BACKOFF_H

#include <stdbool.h>

#include "serve_config.h"

#define BACKOFF_FULL 3		/* levels: 0 off, then 25 %, 50 %, 100 % of target events fuzzed */

struct backoff {
	unsigned level;
	unsigned calm_s;	/* seconds below resume_below since the last step */
};

/* One second's pressure (percent); true when the level changed. */
bool backoff_step(struct backoff *b, double pressure, const struct serve_config *c);
/* The share of target events the scheduler leaves alone at this level, in percent. */
unsigned backoff_unfuzzed_pct(const struct backoff *b);
/* "some avg10=" of a PSI file's text; 0, or -1 if absent. */
int psi_some_avg10(const char *text, double *pct);
#endif /* FUZZ_BACKOFF_H */
