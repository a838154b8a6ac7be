/* SPDX-License-Identifier: GPL-2.0 */
/* serve's back-off: off at once under pressure, back a step per calm period; PSI text parsed. */
#include <criterion/criterion.h>

#include "backoff.h"

static const struct serve_config cfg = { .cpu_pressure = 40, .resume_below = 20, .resume_step_s = 3 };

Test(backoff, pressure_turns_fuzzing_off_at_once)
{
	struct backoff b = { .level = BACKOFF_FULL };

	cr_assert_not(backoff_step(&b, 39.9, &cfg));
	cr_assert_eq(backoff_unfuzzed_pct(&b), 0);
	cr_assert(backoff_step(&b, 40.1, &cfg));
	cr_assert_eq(backoff_unfuzzed_pct(&b), 100);
	cr_assert_not(backoff_step(&b, 90, &cfg), "already off: no new step");
}

Test(backoff, comes_back_a_step_per_calm_period)
{
	struct backoff b = { .level = 0 };
	unsigned seen[8], n = 0;

	for (int s = 0; s < 20; s++)
		if (backoff_step(&b, 5, &cfg))
			seen[n++] = backoff_unfuzzed_pct(&b);
	cr_assert_eq(n, 3);
	cr_assert_eq(seen[0], 75);
	cr_assert_eq(seen[1], 50);
	cr_assert_eq(seen[2], 0);
}

Test(backoff, between_thresholds_restarts_the_calm_count)
{
	struct backoff b = { .level = 0 };

	backoff_step(&b, 5, &cfg);
	backoff_step(&b, 5, &cfg);
	cr_assert_not(backoff_step(&b, 30, &cfg), "30 %% is neither high nor calm");
	cr_assert_not(backoff_step(&b, 5, &cfg));
	cr_assert_not(backoff_step(&b, 5, &cfg));
	cr_assert(backoff_step(&b, 5, &cfg), "three calm seconds in a row");
	cr_assert_eq(b.level, 1);
}

Test(backoff, psi_text)
{
	double v = -1;

	cr_assert_eq(psi_some_avg10("some avg10=12.34 avg60=1.00 avg300=0.50 total=123\n"
				    "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", &v), 0);
	cr_assert_float_eq(v, 12.34, 1e-9);
	cr_assert_eq(psi_some_avg10("full avg10=3.00 avg60=0.00 avg300=0.00 total=0\n", &v), -1);
	cr_assert_eq(psi_some_avg10("", &v), -1);
}
