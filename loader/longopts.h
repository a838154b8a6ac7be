/* SPDX-License-Identifier: GPL-2.0 */
/* The option table: parsed by cli/opts.c, re-read by output/repro.c. */
#ifndef FUZZ_LONGOPTS_H
#define FUZZ_LONGOPTS_H

#include <getopt.h>

/* getopt_long values of the options without a short letter */
enum { OPT_ERROR_CMD = 256, OPT_ERROR_INTERVAL, OPT_EXCLUDE_COMM, OPT_JAVA, OPT_ITERATION_TIME,
       OPT_MAX_ITERATIONS, OPT_MODE, OPT_RUN, OPT_SLEEP, OPT_SYSTEM_SLICE, OPT_NO_SCALE,
       OPT_PREEMPT, OPT_SERIALIZE, OPT_DEPTH, OPT_PCT_STEPS, OPT_EVENTS, OPT_HOLD_SHARE, OPT_STARTS,
       OPT_RUN_SCALE, OPT_POINTS, OPT_POINT_PROB, OPT_POINT_RATE,
       OPT_POINT_SEED };

extern const struct option fuzz_longopts[];
extern const char fuzz_shortopts[];
#endif /* FUZZ_LONGOPTS_H */
