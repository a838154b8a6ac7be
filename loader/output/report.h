/* SPDX-License-Identifier: GPL-2.0 */
/* report.c: what the runner tells people, on stderr, from plain results. */
#ifndef FUZZ_REPORT_H
#define FUZZ_REPORT_H

#include <stdbool.h>

#include "result.h"
#include "trace.h"

void report_run_line(const struct campaign_result *res, const struct run *r,
		     const struct output_tail *tail);
void report_failure(const struct campaign_result *res, const struct run *r,
		    const struct output_tail *tail);
void report_trace(const struct campaign_result *res, const struct run *r, const struct trace *t);
void report_status(const struct campaign_result *res, bool final);
void report_summary(const struct campaign_result *res);

#endif /* FUZZ_REPORT_H */
