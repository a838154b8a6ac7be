/* SPDX-License-Identifier: GPL-2.0 */
/* Parsing --points: which kinds of point to place (points.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "points.h"
#include "scx_fuzz.h"

int points_parse_spec(const char *s, struct point_spec *spec, char *err, size_t len)
{
	char buf[256], *tok, *save, *colon;

	memset(spec, 0, sizeof(*spec));
	if (strlen(s) >= sizeof(buf) || !*s)
		goto bad;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		colon = strchr(tok, ':');
		if (colon)
			*colon++ = 0;
		if (!strcmp(tok, "locks") && !colon) {
			spec->locks = true;
		} else if (!strcmp(tok, "funcs") && !colon) {
			spec->funcs = true;
		} else if (!strcmp(tok, "insns")) {
			char *end;
			unsigned long n = colon ? strtoul(colon, &end, 10) : 1000;

			if (colon && (*end || !n || n > FUZZ_MAX_POINTS))
				goto bad;
			spec->insns = true;
			spec->max_insns = n;
		} else if (!strcmp(tok, "auto") && !colon) {
			spec->locks = spec->funcs = spec->insns = spec->auto_size = true;
			spec->max_insns = 4000;
		} else if (!strcmp(tok, "off") && !colon && !strcmp(s, "off")) {
			return 0;
		} else {
			goto bad;
		}
	}
	return 0;
bad:
	snprintf(err, len, "invalid --points (locks, funcs, insns[:N], auto or off, comma-separated): '%s'", s);
	return -1;
}
