// SPDX-License-Identifier: GPL-2.0
/*
 * jsoncheck FILE...: parse each file with json-c's strict parser (UTF-8
 * checked) and print one TAP line per file. Exit 1 if any is not valid JSON.
 * The VM tests run it on every --json, --trace and topo --json file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

/* 0 if the whole file is one valid JSON value (trailing whitespace allowed). */
static int check(const char *path, char *why, size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *obj = NULL;
	enum json_tokener_error err = json_tokener_continue;
	char buf[1 << 16];
	FILE *f = fopen(path, "r");
	size_t n, used = 0;
	int ret = -1;

	if (!f || !tok) {
		snprintf(why, len, "cannot open it");
		goto out;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	while (!obj && (n = fread(buf, 1, sizeof(buf), f)) > 0) {
		obj = json_tokener_parse_ex(tok, buf, (int)n);
		err = json_tokener_get_error(tok);
		if (err != json_tokener_success && err != json_tokener_continue)
			break;
		used = obj ? json_tokener_get_parse_end(tok) : n;
		if (obj)	/* the rest of this buffer and of the file: whitespace only */
			for (size_t i = used; i < n; i++)
				if (!strchr(" \t\r\n", buf[i]))
					err = json_tokener_error_parse_unexpected;
	}
	if (obj && err == json_tokener_success) {
		int c;

		while ((c = fgetc(f)) != EOF)
			if (!strchr(" \t\r\n", c))
				err = json_tokener_error_parse_unexpected;
	}
	if (!obj && err == json_tokener_continue)
		snprintf(why, len, "it ends inside a value");
	else if (err != json_tokener_success)
		snprintf(why, len, "%s at byte %zu", json_tokener_error_desc(err),
			 (size_t)json_tokener_get_parse_end(tok));
	else
		ret = 0;
out:
	json_object_put(obj);
	if (tok)
		json_tokener_free(tok);
	if (f)
		fclose(f);
	return ret;
}

int main(int argc, char **argv)
{
	char why[256];
	int bad = 0;

	for (int i = 1; i < argc; i++) {
		if (check(argv[i], why, sizeof(why))) {
			printf("not ok - %s is valid JSON (json-c, strict): %s\n", argv[i], why);
			bad = 1;
		} else {
			printf("ok - %s is valid JSON (json-c, strict)\n", argv[i]);
		}
	}
	return bad;
}
