/* SPDX-License-Identifier: GPL-2.0 */
/* `scx_fuzz serve`: its configuration file, read by cli/config.c and used by run/serve.c. */
#ifndef FUZZ_SERVE_CONFIG_H
#define FUZZ_SERVE_CONFIG_H

#include <stdbool.h>

#define SERVE_MAX_FLIGHT_EVENTS (1u << 20)

struct serve_config {
	const char *path;		/* the file itself */
	/* [target] and [fuzz]: become the usual flags */
	char *cgroup, *comm, *exclude_comm;
	char *intensity, *budget, *seed;
	char *error_command;		/* its success means a target failed: a flight record */
	unsigned error_check_interval_s;
	/* [backoff]: PSI "some avg10", in percent */
	bool pressure_of_cgroup;	/* the target cgroup's cpu.pressure, not /proc/pressure/cpu */
	double cpu_pressure;		/* above: fuzzing stops at once */
	double resume_below;		/* below for resume_step_s: one step back */
	unsigned resume_step_s;
	/* [output] */
	char *metrics;			/* Prometheus text file; NULL: none */
	char *json;			/* the same as a JSON object; NULL: none */
	unsigned interval_s;
	char *flight_dir;
	unsigned flight_events;		/* 0: no flight recorder */
};

#endif /* FUZZ_SERVE_CONFIG_H */
