/* SPDX-License-Identifier: GPL-2.0 */
/*
 * serve's configuration: an INI file read by Debian's libinih. Every key is
 * known and checked here; the fuzzing keys become the command line's own
 * flags, so they mean exactly what the flags mean.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "config.h"
#include "opts.h"

enum key_kind { KEY_STRING, KEY_PERCENT, KEY_COUNT, KEY_PRESSURE_OF };

struct key {
	const char *section, *name;
	enum key_kind kind;
	size_t offset;		/* into struct serve_config */
	double max;		/* KEY_PERCENT, KEY_COUNT: largest allowed */
};

#define AT(f) offsetof(struct serve_config, f)
static const struct key keys[] = {
	{ "target", "cgroup", KEY_STRING, AT(cgroup), 0 },
	{ "target", "comm", KEY_STRING, AT(comm), 0 },
	{ "target", "exclude_comm", KEY_STRING, AT(exclude_comm), 0 },
	{ "target", "error_command", KEY_STRING, AT(error_command), 0 },
	{ "target", "error_check_interval_s", KEY_COUNT, AT(error_check_interval_s), 86400 },
	{ "fuzz", "intensity", KEY_STRING, AT(intensity), 0 },
	{ "fuzz", "budget", KEY_STRING, AT(budget), 0 },
	{ "fuzz", "seed", KEY_STRING, AT(seed), 0 },
	{ "backoff", "pressure", KEY_PRESSURE_OF, AT(pressure_of_cgroup), 0 },
	{ "backoff", "cpu_pressure", KEY_PERCENT, AT(cpu_pressure), 100 },
	{ "backoff", "resume_below", KEY_PERCENT, AT(resume_below), 100 },
	{ "backoff", "resume_step_s", KEY_COUNT, AT(resume_step_s), 86400 },
	{ "output", "metrics", KEY_STRING, AT(metrics), 0 },
	{ "output", "json", KEY_STRING, AT(json), 0 },
	{ "output", "interval_s", KEY_COUNT, AT(interval_s), 86400 },
	{ "output", "flight_dir", KEY_STRING, AT(flight_dir), 0 },
	{ "output", "flight_events", KEY_COUNT, AT(flight_events), SERVE_MAX_FLIGHT_EVENTS },
};

struct reading {
	struct serve_config *c;
	char why[200];		/* what is wrong with the line libinih reports */
};

static int set_key(const struct key *k, const char *value, struct serve_config *c, char *why, size_t len)
{
	void *field = (char *)c + k->offset;
	char *end;
	double v;

	switch (k->kind) {
	case KEY_STRING:
		free(*(char **)field);
		*(char **)field = *value ? strdup(value) : NULL;
		return 0;
	case KEY_PRESSURE_OF:
		if (strcmp(value, "system") && strcmp(value, "cgroup"))
			break;
		*(bool *)field = !strcmp(value, "cgroup");
		return 0;
	case KEY_PERCENT:
	case KEY_COUNT:
		errno = 0;
		v = strtod(value, &end);
		if (errno || end == value || (*end && strcmp(end, "%")) || !(v >= 0 && v <= k->max) ||
		    (k->kind == KEY_COUNT && v != (unsigned)v))
			break;
		if (k->kind == KEY_PERCENT)
			*(double *)field = v;
		else
			*(unsigned *)field = v;
		return 0;
	}
	snprintf(why, len, "bad value '%s' for %s (%s)", value, k->name,
		 k->kind == KEY_PRESSURE_OF ? "system or cgroup" :
		 k->kind == KEY_PERCENT ? "a percentage, 0 to 100" : "a whole number");
	return -1;
}

/* libinih's callback: 1 if the line is good. */
static int on_key(void *user, const char *section, const char *name, const char *value)
{
	struct reading *r = user;

	if (r->why[0])
		return 0;	/* libinih reads on after an error: the first one is reported */
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(keys[i].section, section) && !strcmp(keys[i].name, name))
			return !set_key(&keys[i], value, r->c, r->why, sizeof(r->why));
	snprintf(r->why, sizeof(r->why), "unknown key '%s' in [%s]", name, section);
	return 0;
}

/* A cgroup named so that its depth can be known before it exists (cgroup_level_of). */
static bool cgroup_path_ok(const char *cg)
{
	const char *part;

	if (cg[0] == '/' && strncmp(cg, "/sys/fs/cgroup/", 15))
		return false;
	for (part = cg; *part; part += strcspn(part, "/"), part += *part == '/') {
		size_t n = strcspn(part, "/");

		if ((n == 1 && part[0] == '.') || (n == 2 && !strncmp(part, "..", 2)))
			return false;
	}
	return true;
}

int config_load(const char *path, struct serve_config *c, char *err, size_t err_len)
{
	struct reading r = { .c = c };
	int line;

	memset(c, 0, sizeof(*c));
	c->path = path;
	c->cpu_pressure = 40;
	c->resume_below = 20;
	c->resume_step_s = 10;
	c->interval_s = 15;
	c->error_check_interval_s = 10;
	c->flight_events = 4096;
	c->flight_dir = strdup("/var/lib/scx_fuzz");
	line = ini_parse(path, on_key, &r);
	if (line < 0) {
		snprintf(err, err_len, "cannot read %s: %s", path,
			 line == -1 ? strerror(errno ? errno : ENOENT) : "out of memory");
		return EXIT_USAGE;
	}
	if (line > 0) {
		snprintf(err, err_len, "%s:%d: %s", path, line, r.why[0] ? r.why : "not a key = value line");
		return EXIT_USAGE;
	}
	if (!c->cgroup && !c->comm) {
		snprintf(err, err_len, "%s: [target] needs cgroup or comm", path);
		return EXIT_USAGE;
	}
	if (c->resume_below > c->cpu_pressure || !c->resume_step_s || !c->interval_s ||
	    !c->error_check_interval_s) {
		snprintf(err, err_len, "%s: [backoff] resume_below must not exceed cpu_pressure, and "
			 "resume_step_s, interval_s and error_check_interval_s must be at least 1", path);
		return EXIT_USAGE;
	}
	if (c->cgroup && !cgroup_path_ok(c->cgroup)) {
		snprintf(err, err_len, "%s: [target] cgroup '%s': relative to /sys/fs/cgroup, or starting "
			 "with /sys/fs/cgroup/, without . or .. parts", path, c->cgroup);
		return EXIT_USAGE;
	}
	if (!c->flight_dir) {
		snprintf(err, err_len, "%s: [output] flight_dir must not be empty", path);
		return EXIT_USAGE;
	}
	if (c->pressure_of_cgroup && !c->cgroup) {
		snprintf(err, err_len, "%s: pressure = cgroup needs [target] cgroup", path);
		return EXIT_USAGE;
	}
	return 0;
}

/* Append "--flag value" for each item of `list` (commas or blanks between), at most `max`. */
static int add_each(char **argv, int *argc, const char *flag, char *list, int max)
{
	int n = 0;

	for (char *save = NULL, *item = strtok_r(list, ", \t", &save); item;
	     item = strtok_r(NULL, ", \t", &save)) {
		if (n++ == max)
			return -1;
		argv[(*argc)++] = (char *)flag;
		argv[(*argc)++] = item;
	}
	return 0;
}

int config_to_opts(const struct serve_config *c, struct fuzz_opts *o, FILE *errs)
{
	static char *argv[16 + 2 * FUZZ_MAX_EXCLUDES];	/* parse_opts keeps it for the reproduction line */
	char *excludes = NULL;
	int argc = 0, r;
	bool done;

	argv[argc++] = "scx_fuzz serve";
	if (c->cgroup)
		argv[argc++] = "--cgroup", argv[argc++] = c->cgroup;
	if (c->comm)
		argv[argc++] = "--comm", argv[argc++] = c->comm;
	argv[argc++] = "--intensity", argv[argc++] = c->intensity ? c->intensity : "low";
	argv[argc++] = "--budget", argv[argc++] = c->budget ? c->budget : "1";	/* at every intensity */
	if (c->seed)
		argv[argc++] = "--seed", argv[argc++] = c->seed;
	if (c->exclude_comm && (excludes = strdup(c->exclude_comm)) &&
	    add_each(argv, &argc, "--exclude-comm", excludes, FUZZ_MAX_EXCLUDES)) {
		fprintf(errs, "scx_fuzz: %s: more than %d exclude_comm names\n", c->path, FUZZ_MAX_EXCLUDES);
		free(excludes);
		return EXIT_USAGE;
	}
	argv[argc] = NULL;
	r = parse_opts(argc, argv, o, &done, errs);
	/* the options point into the config's strings, and into `excludes` for good */
	o->cgroup_may_be_absent = true;
	o->flight_events = c->flight_events;
	return r;
}

void config_free(struct serve_config *c)
{
	free(c->cgroup);
	free(c->comm);
	free(c->exclude_comm);
	free(c->error_command);
	free(c->intensity);
	free(c->budget);
	free(c->seed);
	free(c->metrics);
	free(c->json);
	free(c->flight_dir);
	memset(c, 0, sizeof(*c));
}
